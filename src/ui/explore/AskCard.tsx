// The recall form: query, optional query tags, Recall and Settings buttons, and the profile /
// options drawer. Its state (query, tags, options) is the Explore store's.
import { formatDate } from '../app/format';
import { useRef, type RefObject } from 'react';
import { normaliseTags } from '../../core/validate';
import { RecallOptionsPanel } from './panels';
import { useExplore } from './explore-store';
import { TimeOptions } from '../memories/TimeOptions';

export interface AskCardProps {
  queryRef: RefObject<HTMLInputElement | null>;
  /** The memory store is empty: the placeholder points at the sample collection. */
  empty: boolean;
  modelReady: boolean;
  pending: boolean;
  error: string | null;
  /** The saved default profile, shown when this page picked none. */
  defaultProfile: string | undefined;
  /** Runs the recall; says whether the options drawer is open (the graph is then scrolled into view). */
  onRun: (optionsOpen: boolean) => void;
  /** A recall is on screen: turning chains on or off runs it again. */
  shown?: boolean;
}

/** Hops the chains switch asks for: the walk's longest (query -> hit -> three steps). */
export const CHAIN_HOPS = 3;

export function AskCard({ queryRef, empty, modelReady, pending, error, defaultProfile, onRun, shown }: AskCardProps) {
  const { query, tags, options, setQuery, setTags, patchOptions, setSettingsOpen } = useExplore();
  const optionsRef = useRef<HTMLDetailsElement>(null);
  return (
    <section className="card explore__ask" aria-label="Ask your memories">
      <form
        className="explore__query"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (!query.trim()) return;
          onRun(optionsRef.current?.open ?? false); // the drawer stays as the person left it
        }}
      >
        <label className="sr-only" htmlFor="explore-q">
          Recall query
        </label>
        <input
          id="explore-q"
          ref={queryRef}
          type="search"
          data-testid="explore-query"
          placeholder={empty ? 'Load the sample collection below, then ask something' : 'What do you want to recall? e.g. “why didn’t my bread rise”'}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
        <label className="sr-only" htmlFor="explore-tags">
          Query tags
        </label>
        <input
          id="explore-tags"
          className="explore__tags"
          data-testid="explore-tags"
          placeholder="tags (optional)"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          autoComplete="off"
        />
        <button type="submit" className="btn btn--primary" data-testid="explore-run" disabled={!query.trim()}>
          {pending ? 'Recalling…' : 'Recall'}
        </button>
        <button type="button" className="btn btn--secondary" data-testid="explore-settings" onClick={() => setSettingsOpen(true)}>
          Settings
        </button>
      </form>
      <label className="explore__switch">
        <input
          type="checkbox"
          role="switch"
          data-testid="explore-chains"
          checked={(options.assocHops ?? 0) > 0}
          aria-describedby="explore-chains-hint"
          onChange={(e) => {
            patchOptions({ assocHops: e.target.checked ? CHAIN_HOPS : undefined });
            if (shown && query.trim()) onRun(optionsRef.current?.open ?? false);
          }}
        />
        <span>Show chains of related memories</span>
        <span id="explore-chains-hint" className="field__hint">
          From each thing found, follow memories that say nearly the same, up to three steps.
        </span>
      </label>
      {!modelReady && <p className="field__hint explore__hint">The search model is still loading: Recall answers by matching words until it is ready, then by meaning.</p>}
      <details className="explore__options" data-testid="explore-options" ref={optionsRef}>
        <summary data-testid="explore-options-toggle">
          Profile <strong data-testid="explore-profile">{options.profile ?? defaultProfile ?? 'BALANCED'}</strong>
          {options.profile ? '' : ' (default)'}
          {options.assocHops ? ' · with chains' : ''}
          {typeof options.asOf === 'number' ? ` · as it was on ${formatDate(options.asOf)}` : ''}
          {tags.trim() ? ` · tags ${normaliseTags(tags).map((t) => `#${t}`).join(' ')}` : ''} — change profile and options
        </summary>
        <RecallOptionsPanel value={options} onChange={patchOptions} />
        <TimeOptions value={options} onChange={patchOptions} />
      </details>
      {error && (
        <p className="alert alert--error" role="alert" data-testid="explore-error">
          {error}
        </p>
      )}
    </section>
  );
}
