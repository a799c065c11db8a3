// The page's test hooks (window.__mnemograph, __diag, __graphBench) are declared beside the code
// that installs them; importing those modules' types brings the declarations to the e2e specs and
// the browser benches, whose callbacks run in the page.
import type {} from '../src/ui/app/boot';
import type {} from '../src/diagnostics/main';
import type {} from '../src/graph-lab/main';
