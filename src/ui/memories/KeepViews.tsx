// The Memories tab's three lists: all memories (with the capture form and search), the Review
// list of unsure memories, and the Trash. Each can open a memory in full (MemoryDialog).
import { useId } from 'react';
import { pushRoute, useUi } from '../../state/ui-store';
import { route, type RouteView } from '../app/routes';
import { CaptureSlot, EmptySample, usePhone } from '../shell/MemoriesExtras';
import { SearchPanel } from '../components/SearchPanel';
import { MemoryBrowser } from './MemoryBrowser';
import './keep.css';
import { MemoryDialog } from './MemoryDialog';
import { CleanUp } from './CleanUp';
import { ReviewList, TrashList } from './TrashReview';
import { useKeep } from './keep-store';
import { useCount } from './use-browse';

function go(view: RouteView): void {
  pushRoute(route(view));
  useUi.setState({ view });
  useKeep.setState({ openId: null, editing: false, selected: new Set() });
}

function KeepNav({ view }: { view: RouteView }) {
  const unsure = useCount({ status: 'quarantined' });
  const trash = useCount({ status: 'trashed' });
  const items: { view: RouteView; label: string; n?: number | null }[] = [
    { view: 'memories', label: 'All memories' },
    { view: 'review', label: 'Review unsure', n: unsure },
    { view: 'trash', label: 'Trash', n: trash },
  ];
  return (
    <nav className="keep-nav" aria-label="Memory lists">
      {items.map((it) => (
        <a
          key={it.view}
          href={`#/${it.view}`}
          className="keep-nav__link"
          aria-current={view === it.view ? 'page' : undefined}
          onClick={(e) => {
            e.preventDefault();
            go(it.view);
          }}
          data-testid={`keep-nav-${it.view}`}
        >
          {it.label}
          {it.n != null && it.n > 0 && <span className="count"> {it.n.toLocaleString('en')}</span>}
        </a>
      ))}
    </nav>
  );
}

export function KeepView({ view, ready }: { view: RouteView; ready: boolean }) {
  const id = useId();
  const phone = usePhone();
  return (
    <div className="keep" data-testid={`keep-${view}`}>
      {ready && <KeepNav view={view} />}
      {view === 'memories' && (
        <>
          {/* a phone shows search first and folds the capture form behind "New memory" */}
          {!phone && <CaptureSlot disabled={!ready} phone={false} />}
          <SearchPanel enabled={ready} />
          {phone && <CaptureSlot disabled={!ready} phone />}
          {ready && <EmptySample />}
          {ready && <MemoryBrowser />}
          {ready && <CleanUp />}
        </>
      )}
      {view === 'trash' && ready && <TrashList headingId={`${id}-t`} />}
      {view === 'review' && ready && <ReviewList headingId={`${id}-r`} />}
      {ready && <MemoryDialog />}
    </div>
  );
}
