// The Explore view: ask a question, see what was recalled and why (graph + list), open a memory,
// give feedback, watch the lateral evaluator, and notice when you drift away from recent work.
// This file only composes; each job has its own hook or component:
//   useRecall (the recall run), useGraphModel (one graph per recall), useOpenedMemory (the panel),
//   useLateralStatus, useSamplePlacement, use-settings (persisted settings), useExplore (page state).
import { CarefulNote } from './CarefulNote';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { services } from '../../services';
import type { MemoryId } from '../../core/types';
import { bootStatus, modelProgress } from '../app/boot';
import { useExternal } from '../app/use-store';
import { useEngineWarm } from '../app/use-engine-load';
import { useRecallDefaults, useSimilarityConfig } from '../app/use-settings';
import { DivergenceAlertBanner, LateralStatusPanel } from './panels';
import { useExplore } from './explore-store';
import { AskCard } from './AskCard';
import { GraphCard } from './GraphCard';
import { ResultsCard } from './ResultsList';
import { RecentWork } from './RecentWork';
import { SampleAgain, SampleCard, useSamplePlacement } from './SampleCard';
import { OpenMemory } from './OpenMemory';
import { HiddenFromResults } from './HiddenFromResults';
import { SettingsDialog } from './SettingsDialog';
import { useRecall } from './use-recall';
import { useDivergence, useGraphModel } from './use-graph-model';
import { useOpenedMemory } from './use-opened-memory';
import { useLateralStatus } from './use-lateral-status';
import { labelOf, nothingClose, resultRows } from './view-model';
import { isCognitiveProfile, PROFILES } from '../../core/recall/profiles';
import './explore.css';

export function ExploreView() {
  const boot = useExternal(bootStatus);
  if (boot.state !== 'ready') {
    return (
      <section className="card explore" data-testid="graph-view" aria-label="Explore">
        <p className="empty">{boot.state === 'failed' ? boot.error.message : 'Opening your memories…'}</p>
      </section>
    );
  }
  return <Explore />;
}

function Explore() {
  const modelReady = useExternal(modelProgress).phase === 'ready';
  const engineWarm = useEngineWarm();
  const { query, options, openId, settingsOpen, showTags, depth, kind, tagFilter, recalled, open, setSettingsOpen } = useExplore();
  const count = useLiveQuery(() => services().countMemories(), [], undefined);
  const config = useSimilarityConfig().value;
  const defaults = useRecallDefaults().value;
  const divergence = useDivergence();
  const recall = useRecall();
  const lateral = useLateralStatus();
  const sample = useSamplePlacement(count);
  const views = recall.snapshot?.views;
  const opened = useOpenedMemory(openId, views, () => open(null));
  const graph = useGraphModel(recall.snapshot, divergence, recall.pending, { showTags, depth, kind, tagFilter });
  const queryRef = useRef<HTMLInputElement>(null);
  const recentRef = useRef<HTMLElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const [showRecent, setShowRecent] = useState(false);
  // The recall (query + profile) this mounted view last ran, so an address names each recall once.
  const ranKey = useRef<string | null>(null);

  const runRecall = (text: string, revealGraph: boolean, refine = false) => {
    // Options and tags are read now: an address may have just set the profile.
    const s = useExplore.getState();
    // before the search model is ready: the words alone (keyword results, upgraded below)
    void recall.run(text, s.tags, s.options, refine ? { refine } : { keywordsOnly: !modelReady }).then((outcome) => {
      if (!outcome) return;
      setShowRecent(false);
      lateral.set(outcome.lateralStatus); // counted the lateral results this recall returned
      // The options drawer stays as the person left it (comparing profiles needs it open); the
      // graph is brought into view below it instead.
      if (revealGraph) bodyRef.current?.scrollIntoView?.({ block: 'start' }); // instant; explore.css keeps it below the sticky header
    });
  };

  const run = (optionsOpen: boolean) => {
    const q = query.trim();
    const profile = options.profile ?? null;
    ranKey.current = `${profile ?? ''}|${q}`;
    useExplore.getState().noteRecall(q, profile);
    runRecall(q, optionsOpen);
  };

  // An address with a query (a reload, a shared link, Back / Forward) runs its recall at once (by
  // words while the search model loads); a person's own Recall has already run it.
  useEffect(() => {
    if (!recalled) return;
    const key = `${recalled.profile ?? ''}|${recalled.q}`;
    if (key === ranKey.current) return;
    ranKey.current = key;
    runRecall(recalled.q, false);
    // runRecall reads the store when it runs; the effect follows the address and the encoder only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recalled]);

  // Keyword results while the rest loads: once the search model and the stored features are in,
  // the same recall runs again and its full answer replaces them.
  const partialQuery = recall.snapshot?.partial && !recall.pending ? recall.snapshot.query : null;
  useEffect(() => {
    if (partialQuery === null || !modelReady || !engineWarm) return;
    runRecall(partialQuery, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [partialQuery, modelReady, engineWarm]);

  // Late interaction (src/services/late-refine.ts): the answer shown, refined over its candidates'
  // token matrices; a newer recall cancels it, a failure keeps the answer
  const refinable = recall.snapshot?.refinable && !recall.pending ? recall.snapshot : null;
  useEffect(() => {
    if (refinable) runRecall(refinable.query, false, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refinable]);

  const labelFor = useCallback(
    (id: MemoryId) => {
      const v = views?.find((x) => x.memory.id === id);
      return v ? labelOf(v.memory.text, 60) : (recall.snapshot?.extraLabels.get(id) ?? id);
    },
    [views, recall.snapshot],
  );

  const empty = count === 0;
  const recent = divergence?.recent ?? [];
  const sampleCard = <SampleCard hero={empty} />;

  return (
    <div className="explore" data-testid="graph-view" data-recall-refined={recall.snapshot?.refined ? 'true' : undefined} data-recall-careful={recall.snapshot?.careful ? (recall.snapshot.careful.applied ? 'applied' : 'reading') : undefined} data-refine-ms={recall.snapshot?.refineMs} data-recall-refining={recall.refining ? 'true' : undefined}>
      {divergence?.show && (
        <DivergenceAlertBanner
          topic={divergence.topic}
          hours={divergence.windowHours}
          best={divergence.best}
          agreeing={divergence.agreeing}
          lines={divergence.lines}
          meaningLine={divergence.meaningLine}
          trigger={divergence.trigger}
          recent={recent.map((r) => ({ id: r.id, label: labelOf(r.label, 80) }))}
          config={config}
          onShowRecent={() => {
            setShowRecent(true);
            requestAnimationFrame(() => recentRef.current?.focus());
          }}
          onDismiss={() => {
            services().clearDivergence();
            setShowRecent(false);
          }}
        />
      )}

      <AskCard
        queryRef={queryRef}
        empty={empty}
        modelReady={modelReady}
        pending={recall.pending}
        error={recall.error}
        defaultProfile={defaults?.profile}
        onRun={run}
        shown={recall.snapshot !== null}
      />

      {sample.place === 'top' && sampleCard}

      <div className="explore__body" ref={bodyRef}>
        <GraphCard
          model={graph}
          query={recall.snapshot?.query ?? ''}
          pending={recall.pending}
          queryRef={queryRef}
          nothingClose={views ? nothingClose(resultRows(views)) : false}
          chains={(options.assocHops ?? defaults?.assocHops ?? 0) > 0}
          hiddenChains={recall.snapshot?.hiddenChains ?? 0}
        />

        <aside className="explore__side" aria-label="Results and lateral status">
          {recall.snapshot?.partial && (
            <p className="field__hint" role="status" data-testid="results-partial">
              Keyword results while the rest loads. The full answer replaces them by itself.
            </p>
          )}
          <ResultsCard views={views} stored={count} pending={recall.pending} onOpen={open} openId={openId} deep={recall.snapshot?.deep} iterative={recall.snapshot?.iterative} />
          <CarefulNote note={recall.snapshot?.careful} />
          {showRecent && <RecentWork ref={recentRef} recent={recent} onOpen={open} onHide={() => setShowRecent(false)} />}
          {lateral.status && (
            <>
              <p className="field__hint" data-testid="lateral-note">
                {lateralNote(lateral.status.enabled, options.profile ?? defaults?.profile, options.lateralMode)}
              </p>
              <LateralStatusPanel status={lateral.status} onReEnable={lateral.reEnable} />
            </>
          )}
          <HiddenFromResults onOpen={open} />
          {sample.place === 'later' && <SampleAgain />}
        </aside>
      </div>

      {sample.place === 'bottom' && sampleCard}

      {opened.memory && (
        <OpenMemory
          memory={opened.memory}
          view={opened.view}
          queryText={recall.snapshot?.query ?? ''}
          labelFor={labelFor}
          config={config}
          onClose={() => open(null)}
          onChanged={(m) => {
            opened.replace(m);
            recall.replaceMemory(m);
          }}
          onFeedback={lateral.refresh}
        />
      )}

      {settingsOpen && <SettingsDialog advancedOpen onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}

/**
 * The status panel's "Enabled" is auto-tuning's switch (may lateral results be added at all?),
 * not the profile's: only a profile with lateral mode (Divergent) or the "lateral" advanced option
 * adds them. Said in plain words next to the panel, so "on" is not read as "this recall is lateral".
 */
export function lateralNote(allowed: boolean, profile: string | undefined, lateralOption: boolean | undefined): string {
  const name = isCognitiveProfile(profile) ? profile : 'BALANCED';
  const used = lateralOption ?? PROFILES[name].lateralMode;
  const head = allowed
    ? 'Lateral results: allowed (used by the Divergent profile).'
    : 'Lateral results: paused by auto-tuning, because too many were suppressed.';
  const tail = used ? `Your recalls with ${name} add them.` : `Your recalls with ${name} add none.`;
  return `${head} ${tail}`;
}
