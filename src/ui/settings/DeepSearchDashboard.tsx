// How deeper search is doing (seed 003 phase 2's dashboard), from the database's log: in plain
// words first (how often it ran, how often it found something the first search had missed, how
// long it took), a small d3 chart of the share of recalls that used it per day, and the figures
// (invocations, hit rate, average and p95 latency, statuses, the adaptive thresholds' history, what
// the scorer learned) one click away under "details".
import { useEffect, useState } from 'react';
import { max, scaleBand, scaleLinear } from 'd3';
import { services } from '../../services';
import { ADAPTIVE, adaptiveThreshold, DEEP_SEARCH_DEFAULTS, QUERY_CATEGORIES, type AdaptiveHistory, type DeepStats } from '../../core/deep';
import { errorMessage } from '../app/format';

type Stats = Awaited<ReturnType<ReturnType<typeof services>['deepSearchStats']>>;

const DAYS = 14;
const pct = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`);
/** A UTC day's date, short ("Nov 12"): the series counts UTC days. */
const dayText = (ms: number) => new Date(ms).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const secs = (ms: number | null) => (ms === null ? '–' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** The plain-words summary (exported for tests). */
export function deepSummary(s: Pick<DeepStats, 'invocations' | 'hits' | 'hitRate' | 'meanMs' | 'rateLimited'>, days = DAYS): string {
  if (s.invocations === 0)
    return `Deeper search has not run in the last ${days} days. It runs when a recall looks unsure and it is switched on in Explore's options ("Deeper search when unsure").`;
  const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;
  let out = `In the last ${days} days deeper search ran ${times(s.invocations)} and found something your first search had missed ${times(s.hits)} (${pct(s.hitRate)}). It took ${secs(s.meanMs)} on average.`;
  if (s.rateLimited > 0) out += ` It was held back ${times(s.rateLimited)} by the limit per session.`;
  return out;
}

/**
 * The adaptive mode's threshold for each kind of question now (from the default 0.3; a threshold
 * set in Explore's options moves the same way around itself): the history alone did not show
 * whether any kind had moved yet (it moves after 5 escalations of that kind). Exported for tests.
 */
export function adaptiveLine(history: AdaptiveHistory, base: number = DEEP_SEARCH_DEFAULTS.threshold): string {
  return QUERY_CATEGORIES.map((c) => `${c} ${adaptiveThreshold(base, history, c).toFixed(2)}`).join(', ');
}

/** The learned weights for "details" ("1 pair", not "1 pairs"). Exported for tests. */
export function learnedFigures(w: Stats['learning']['weights']): string {
  if (!w) return 'none yet (the shipped weights)';
  const spaces = Object.entries(w.spaceWeights)
    .map(([k, v]) => `${k} ${(v ?? 0).toFixed(2)}`)
    .join(', ');
  return `${w.pairs} pair${w.pairs === 1 ? '' : 's'} · lexical ${w.lexicalWeight.toFixed(3)}${spaces ? ` · ${spaces}` : ''}`;
}

function RateChart({ series }: { series: DeepStats['series'] }) {
  const w = 320;
  const h = 96;
  const pad = { top: 8, bottom: 18, left: 4, right: 4 };
  const x = scaleBand<number>().domain(series.map((d) => d.day)).range([pad.left, w - pad.right]).padding(0.2);
  const top = Math.max(0.1, max(series, (d) => d.rate ?? 0) ?? 0);
  const y = scaleLinear().domain([0, top]).range([h - pad.bottom, pad.top]);
  const used = series.filter((d) => d.rate !== null);
  const label = used.length
    ? `Share of recalls that used deeper search, per day over the last ${series.length} days: highest ${pct(Math.max(...used.map((d) => d.rate ?? 0)))}.`
    : `No recall used deeper search in the last ${series.length} days.`;
  return (
    <svg className="deep-dash__chart" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label} data-testid="deep-dash-chart">
      <line x1={pad.left} x2={w - pad.right} y1={h - pad.bottom} y2={h - pad.bottom} className="deep-dash__axis" />
      {series.map((d) => (
        <rect key={d.day} x={x(d.day)} width={x.bandwidth()} y={y(d.rate ?? 0)} height={Math.max(0, h - pad.bottom - y(d.rate ?? 0))} className="deep-dash__bar">
          <title>{`${dayText(d.day)}: ${d.invocations} of ${d.recalls} recalls (${pct(d.rate)})`}</title>
        </rect>
      ))}
      <text x={pad.left} y={h - 4} className="deep-dash__tick">
        {series[0] ? dayText(series[0].day) : ''}
      </text>
      <text x={w - pad.right} y={h - 4} textAnchor="end" className="deep-dash__tick">
        today
      </text>
    </svg>
  );
}

export function DeepSearchDashboard() {
  const [stats, setStats] = useState<Stats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    services()
      .deepSearchStats(DAYS)
      .then((s) => live && setStats(s))
      .catch((e: unknown) => live && setError(errorMessage(e)));
    return () => {
      live = false;
    };
  }, []);
  if (error)
    return (
      <p className="alert alert--error" role="alert">
        {error}
      </p>
    );
  if (!stats) return <p className="empty">Loading…</p>;
  const w = stats.learning.weights;
  return (
    <div className="deep-dash" data-testid="deep-dash">
      <p data-testid="deep-dash-summary">{deepSummary(stats)}</p>
      <RateChart series={stats.series} />
      <p className="field__hint">
        {w && w.pairs > 0
          ? `Your first search has learned from ${w.pairs} memor${w.pairs === 1 ? 'y' : 'ies'} that deeper search found and you opened, so it should need deeper search less often.`
          : 'When you open a memory that deeper search found, your first search learns from it and should need deeper search less often.'}
      </p>
      <details className="details">
        <summary>details</summary>
        <dl className="deep-dash__figures" data-testid="deep-dash-figures">
          <dt>invocations</dt>
          <dd data-testid="deep-dash-invocations">{stats.invocations}</dd>
          <dt>hits (a memory outside the primary results read ≥ 0.5)</dt>
          <dd>
            {stats.hits} · hit rate {pct(stats.hitRate)}
          </dd>
          <dt>latency</dt>
          <dd>
            mean {secs(stats.meanMs)} · p95 {secs(stats.p95Ms)}
          </dd>
          <dt>by status</dt>
          <dd>{Object.entries(stats.byStatus).map(([k, v]) => `${k} ${v}`).join(', ') || '–'}</dd>
          <dt>adaptive history (escalations / hits per query category)</dt>
          <dd>{Object.entries(stats.history).map(([k, v]) => `${k} ${Math.round(v.escalations)} / ${Math.round(v.hits)}`).join(', ') || '–'}</dd>
          <dt>adaptive threshold now (from {DEEP_SEARCH_DEFAULTS.threshold.toFixed(2)}; moves after {ADAPTIVE.minSamples} escalations of a kind)</dt>
          <dd data-testid="deep-dash-thresholds">{adaptiveLine(stats.history)}</dd>
          <dt>learned weights</dt>
          <dd>
            {learnedFigures(w)}
          </dd>
        </dl>
      </details>
    </div>
  );
}
