// The Explore view: ask a question, see what was recalled and why (graph + list), open a memory,
// give feedback, watch the lateral evaluator, and notice when you drift away from recent work.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { GRAPH_DEPTHS, RecallGraph, buildGraphModel, type GraphDepth, type GraphModel } from '../graph';
import { DivergenceAlertBanner, LateralStatusPanel, MemoryPanel, RecallOptionsPanel, SampleLoader, SpaceExplanationPanel } from './panels';
import {
  clearDivergence,
  countMemories,
  createRecallController,
  getMemory,
  getRecallDefaults,
  getSetting,
  getSimilarityConfig,
  lateralStatus,
  latestDivergence,
  reEnableLateral,
  reinforce,
  setSetting,
  setTags,
  subscribeDivergence,
  suppress,
  type DivergenceView,
  type RecallView,
} from '../../services';
import type { LateralStatus, RecallOptionsInput } from '../../core/recall';
import type { SimilarityConfig } from '../../core/spaces';
import type { Memory, MemoryId } from '../../core/types';
import { normaliseTags } from '../../core/validate';
import { useUi } from '../../state/ui-store';
import { bootStatus, modelProgress } from '../app/boot';
import { useExternal } from '../app/use-store';
import { useExplore } from './explore-store';
import { ResultsList } from './ResultsList';
import { SettingsDialog } from './SettingsDialog';
import { graphInput, labelOf, missingChainIds, resultRows } from './view-model';
import { loadSample, SAMPLE_SETTING } from './sample';
import './explore.css';

const noop = () => () => undefined;
const none = () => null;

/** Divergence of the last capture / recall (null before services start). */
function useDivergence(ready: boolean): DivergenceView | null {
  return useSyncExternalStore(ready ? subscribeDivergence : noop, ready ? latestDivergence : none, none);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function ExploreView() {
  const boot = useExternal(bootStatus);
  const ready = boot.state === 'ready';
  if (!ready) {
    return (
      <section className="card explore" data-testid="graph-view" aria-label="Explore">
        <p className="empty">{boot.state === 'failed' ? boot.error.message : 'Opening your memories…'}</p>
      </section>
    );
  }
  return <Explore />;
}

function Explore() {
  const model = useExternal(modelProgress);
  const modelReady = model.phase === 'ready';
  const theme = useUi((s) => s.theme);
  const pushToast = useUi((s) => s.pushToast);
  const { query, tags, options, openId, settingsOpen, showTags, depth, kind, tagFilter } = useExplore();
  const ex = useExplore();
  const count = useLiveQuery(() => countMemories(), [], undefined);
  const sampleLoaded = useLiveQuery(() => getSetting<number>(SAMPLE_SETTING), [], undefined);
  const divergence = useDivergence(true);
  const controller = useMemo(() => createRecallController(), []);
  const queryRef = useRef<HTMLInputElement>(null);
  const recentRef = useRef<HTMLElement>(null);
  const optionsRef = useRef<HTMLDetailsElement>(null);

  const [views, setViews] = useState<RecallView[] | null>(null);
  const [ranQuery, setRanQuery] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<LateralStatus | null>(null);
  const [config, setConfig] = useState<SimilarityConfig | undefined>(undefined);
  const [extraLabels, setExtraLabels] = useState<Map<MemoryId, string>>(new Map());
  const [opened, setOpened] = useState<Memory | null>(null);
  const [showRecent, setShowRecent] = useState(false);
  const [savedDefaults, setSavedDefaults] = useState<RecallOptionsInput>({});
  // The sample card stays in place while it loads and after (its "done" line), until a reload.
  const [sampleActive, setSampleActive] = useState(false);
  const onLoadSample = useCallback((p: (done: number, total: number) => void, signal: AbortSignal) => {
    setSampleActive(true);
    return loadSample(p, signal);
  }, []);

  const refreshStatus = useCallback(() => {
    lateralStatus().then(setStatus, (e: unknown) => pushToast({ kind: 'error', message: message(e) }));
  }, [pushToast]);

  useEffect(() => {
    refreshStatus();
    getSimilarityConfig().then(setConfig, () => undefined);
    getRecallDefaults().then(setSavedDefaults, () => undefined);
    return () => controller.abort();
  }, [controller, refreshStatus]);

  const run = useCallback(async () => {
    const text = query.trim();
    if (!text) return;
    if (optionsRef.current) optionsRef.current.open = false; // make room for the graph
    setPending(true);
    setError(null);
    const queryTags = normaliseTags(tags);
    try {
      const out = await controller.run(text, queryTags.length ? { ...options, queryTags } : options);
      if (out.status !== 'fresh') return;
      setViews(out.results);
      setRanQuery(text);
      setShowRecent(false);
      const missing = missingChainIds(out.results);
      if (missing.length) {
        const got = await Promise.all(missing.map((id) => getMemory(id).then((m) => [id, labelOf(m.text, 48)] as const, () => null)));
        setExtraLabels(new Map(got.filter((g): g is readonly [string, string] => g !== null)));
      } else setExtraLabels(new Map());
      setPending(false);
      refreshStatus();
    } catch (e) {
      if ((e as { code?: string }).code === 'ABORTED') return;
      setPending(false);
      setError(message(e));
    }
  }, [controller, query, tags, options, refreshStatus]);

  // Open a memory from the graph, the list or the recent-work list.
  useEffect(() => {
    if (!openId) {
      setOpened(null);
      return;
    }
    const inResults = views?.find((v) => v.memory.id === openId)?.memory;
    if (inResults) {
      setOpened(inResults);
      return;
    }
    let live = true;
    getMemory(openId).then(
      (m) => live && setOpened(m),
      (e: unknown) => {
        if (!live) return;
        ex.open(null);
        pushToast({ kind: 'error', message: message(e) });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openId, views]);

  const openView = views?.find((v) => v.memory.id === openId);
  const graphModel: GraphModel | null = useMemo(() => {
    if (!views && !divergence?.alerts.length) return null;
    try {
      const filters = {
        kinds: kind === 'all' ? undefined : [kind],
        tag: tagFilter.trim() || undefined,
      };
      return buildGraphModel(
        graphInput({ query: ranQuery || divergence?.query || 'recent work', views: views ?? [], divergence, showTags, depth, filters, extraLabels }),
      );
    } catch {
      return null;
    }
  }, [views, ranQuery, divergence, showTags, depth, kind, tagFilter, extraLabels]);

  const labelFor = useCallback(
    (id: MemoryId) => {
      const v = views?.find((x) => x.memory.id === id);
      return v ? labelOf(v.memory.text, 60) : (extraLabels.get(id) ?? id);
    },
    [views, extraLabels],
  );

  const empty = count === 0;
  const recent = divergence?.recent ?? [];

  const sampleCard = (empty || !sampleLoaded || sampleActive) && count !== undefined && (
    <section className={`explore__sample${empty ? ' explore__sample--hero' : ''}`} aria-label="Sample collection">
      {empty && <h2 className="explore__hero-title">Start with the sample collection</h2>}
      <SampleLoader
        onLoad={onLoadSample}
        onDone={() => {
          void setSetting(SAMPLE_SETTING, Date.now());
          pushToast({ kind: 'success', message: 'Sample collection loaded.' });
        }}
      />
    </section>
  );

  return (
    <div className="explore" data-testid="graph-view">
      {divergence && divergence.alerts.length > 0 && (
        <DivergenceAlertBanner
          alerts={divergence.alerts}
          recent={recent.map((r) => ({ id: r.id, label: labelOf(r.label, 80) }))}
          config={config}
          onShowRecent={() => {
            setShowRecent(true);
            requestAnimationFrame(() => recentRef.current?.focus());
          }}
          onDismiss={() => {
            clearDivergence();
            setShowRecent(false);
          }}
        />
      )}

      <section className="card explore__ask" aria-label="Ask your memories">
        <form
          className="explore__query"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
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
            onChange={(e) => ex.setQuery(e.target.value)}
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
            onChange={(e) => ex.setTags(e.target.value)}
            autoComplete="off"
          />
          <button type="submit" className="btn btn--primary" data-testid="explore-run" disabled={!query.trim() || !modelReady}>
            {pending ? 'Recalling…' : 'Recall'}
          </button>
          <button type="button" className="btn btn--secondary" data-testid="explore-settings" onClick={() => ex.setSettingsOpen(true)}>
            Settings
          </button>
        </form>
        {!modelReady && <p className="field__hint explore__hint">The sentence encoder is still loading; recall starts when it is ready.</p>}
        <details className="explore__options" data-testid="explore-options" ref={optionsRef}>
          <summary data-testid="explore-options-toggle">
            Profile <strong data-testid="explore-profile">{options.profile ?? savedDefaults.profile ?? 'BALANCED'}</strong>
            {options.profile ? '' : ' (default)'}
            {options.assocHops ? ` · ${options.assocHops} associative hops` : ''}
            {tags.trim() ? ` · tags ${normaliseTags(tags).map((t) => `#${t}`).join(' ')}` : ''} — change profile and options
          </summary>
          <RecallOptionsPanel value={options} onChange={(p) => ex.patchOptions(p)} />
        </details>
        {error && (
          <p className="alert alert--error" role="alert" data-testid="explore-error">
            {error}
          </p>
        )}
      </section>

      {(empty || sampleActive) && sampleCard}

      <div className="explore__body">
        <section className="explore__graph card" aria-label="Recall graph">
          <div className="explore__graph-head">
            <h2 className="card__title">
              {ranQuery ? <>Graph for “{ranQuery}”</> : 'Graph'}
              {pending && <span className="count">recalling…</span>}
            </h2>
            <div className="explore__graph-controls">
              <label className="explore__toggle">
                Show
                <select value={kind} onChange={(e) => ex.setKind(e.target.value as typeof kind)} data-testid="explore-kind-filter">
                  <option value="all">all kinds</option>
                  <option value="standard">standard</option>
                  <option value="lateral">lateral</option>
                  <option value="associative">associative</option>
                </select>
              </label>
              <label className="explore__toggle">
                Tag
                <input
                  type="text"
                  size={10}
                  value={tagFilter}
                  placeholder="any"
                  onChange={(e) => ex.setTagFilter(e.target.value)}
                  data-testid="explore-tag-filter"
                />
              </label>
              <label className="explore__toggle">
                Depth
                <select value={depth} onChange={(e) => ex.setDepth(Number(e.target.value) as GraphDepth)} data-testid="explore-depth">
                  {GRAPH_DEPTHS.map((d) => (
                    <option key={d} value={d}>
                      {d}
                    </option>
                  ))}
                </select>
              </label>
              <label className="explore__toggle">
                <input type="checkbox" checked={showTags} onChange={(e) => ex.setShowTags(e.target.checked)} data-testid="explore-show-tags" /> Tags
              </label>
            </div>
          </div>
          {graphModel ? (
            <RecallGraph
              model={graphModel}
              theme={theme}
              height="min(66vh, 640px)"
              onOpen={(id) => ex.open(id)}
              onEscape={() => queryRef.current?.focus()}
              label={`Recall graph for “${ranQuery}”. Tab through the memories, Enter opens one, Escape returns to the query.`}
            />
          ) : (
            <div className="explore__placeholder">
              <p>Ask something to see how your memories connect: direct hits, lateral hops across domains, and associative chains.</p>
            </div>
          )}
        </section>

        <aside className="explore__side" aria-label="Results and lateral status">
          <section className="card explore__results" aria-labelledby="xr-h" aria-busy={pending}>
            <h2 id="xr-h" className="card__title">
              Results {views && <span className="count" data-testid="explore-result-count">{views.length}</span>}
            </h2>
            {views && views.length === 0 && <p className="empty">Nothing recalled for that query.</p>}
            {views && <ResultsList rows={resultRows(views)} onOpen={(id) => ex.open(id)} openId={openId} />}
            {!views && <p className="empty">Results appear here, each with how it was found.</p>}
          </section>

          {showRecent && (
            <section className="card explore__recent" aria-labelledby="xrr-h" tabIndex={-1} ref={recentRef} data-testid="explore-recent">
              <h2 id="xrr-h" className="card__title">
                Recent work
                <button type="button" className="btn btn--ghost btn--small" onClick={() => setShowRecent(false)}>
                  Hide
                </button>
              </h2>
              {recent.length === 0 ? (
                <p className="empty">Nothing recent.</p>
              ) : (
                <ul className="xr-list">
                  {recent.map((r) => (
                    <li key={r.id}>
                      <button type="button" className="xr-item" data-testid="explore-recent-item" onClick={() => ex.open(r.id)}>
                        <span className="xr-item__title">{labelOf(r.label, 120)}</span>
                        <span className="xr-item__meta">{new Date(r.createdAt).toLocaleString()}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}

          {status && <LateralStatusPanel status={status} onReEnable={() => reEnableLateral().then(setStatus, () => undefined)} />}

          {!empty && sampleLoaded && !sampleActive && count !== undefined && (
            <details className="card explore__sample-later">
              <summary>Sample collection</summary>
              <p className="field__hint">The sample collection is loaded. Loading it again adds a second copy.</p>
              <SampleLoader onLoad={loadSample} />
            </details>
          )}
        </aside>
      </div>

      {!empty && !sampleActive && sampleCard}

      {opened && openId === opened.id && (
        <MemoryPanel
          memory={opened}
          result={openView?.result}
          queryText={ranQuery}
          labelFor={labelFor}
          explanation={
            openView ? (
              <SpaceExplanationPanel sims={openView.result.spaces.sims} config={config} relevance={openView.result.spaces.relevance} hybrid={openView.result.why} />
            ) : undefined
          }
          onClose={() => ex.open(null)}
          onTagsChange={async (t) => {
            const m = await setTags(opened.id, t);
            setOpened(m);
            setViews((vs) => vs?.map((v) => (v.memory.id === m.id ? { ...v, memory: m } : v)) ?? null);
          }}
          onReinforce={async (v) => {
            const text = await reinforce(opened.id, v);
            refreshStatus();
            return text;
          }}
          onSuppress={async (reason) => {
            const text = await suppress(opened.id, reason || undefined);
            refreshStatus();
            return text;
          }}
        />
      )}

      {settingsOpen && (
        <SettingsDialog
          onClose={() => ex.setSettingsOpen(false)}
          onSaved={(c) => setConfig(c)}
          onDefaultsSaved={setSavedDefaults}
        />
      )}
    </div>
  );
}
