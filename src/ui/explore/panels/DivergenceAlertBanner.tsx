// The divergence alert: the core raises one per space where the new item's BEST similarity to the
// recent memories falls below that space's low threshold; the alert names the space, that
// similarity and the threshold, and summarises the recent work. Shown as a calm, non-blocking
// banner: it announces itself politely (role="status"), never takes focus, and can be dismissed
// or used to jump back to the recent work it compares against.
import { useEffect, useId, useMemo, useState } from 'react';
import type { MemoryId } from '../../../core/types';
import {
  DEFAULT_SIMILARITY_CONFIG,
  SPACE_IDS,
  activeEmbedders,
  formatSpaceRanges,
  type DivergenceAlert,
  type SimilarityConfig,
} from '../../../core/spaces';
import { fixed } from './format';
import './panels.css';

export interface RecentMemoryRef {
  id: MemoryId;
  /** Short text shown for the memory (e.g. its first line). */
  label: string;
}

export interface DivergenceAlertBannerProps {
  alerts: readonly DivergenceAlert[];
  /** The recent window the current item was compared with, newest first. */
  recent: readonly RecentMemoryRef[];
  config?: SimilarityConfig;
  /** "Show recent work": receives the recent memories' ids. */
  onShowRecent?: (ids: MemoryId[]) => void;
  onDismiss?: () => void;
  className?: string;
}

/** Identity of an alert set: a new set of alerts re-opens a dismissed banner. */
function alertsKey(alerts: readonly DivergenceAlert[]): string {
  return alerts.map((a) => `${a.embedder}:${a.similarity}:${a.recentMemorySummary}`).join('|');
}

export function DivergenceAlertBanner(props: DivergenceAlertBannerProps) {
  const { alerts, recent, onShowRecent, onDismiss, className } = props;
  const config = props.config ?? DEFAULT_SIMILARITY_CONFIG;
  const key = alertsKey(alerts);
  const [dismissedKey, setDismissedKey] = useState<string | null>(null);
  const headingId = useId();
  useEffect(() => {
    if (dismissedKey !== null && dismissedKey !== key) setDismissedKey(null);
  }, [key, dismissedKey]);

  const checked = useMemo(() => formatSpaceRanges(activeEmbedders(config)), [config]);
  const skipped = useMemo(() => formatSpaceRanges(SPACE_IDS.filter((id) => config.excluded[id])), [config]);

  if (alerts.length === 0 || dismissedKey === key) return null;
  const summary = alerts[0].recentMemorySummary;
  const sameSummary = alerts.every((a) => a.recentMemorySummary === summary);

  const dismiss = () => {
    setDismissedKey(key);
    onDismiss?.();
  };

  return (
    <section
      className={`mg-x mg-banner ${className ?? ''}`}
      role="status"
      aria-live="polite"
      aria-labelledby={headingId}
      data-testid="divergence-alert"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          dismiss();
        }
      }}
    >
      <div className="mg-banner__icon" aria-hidden="true">↯</div>
      <div className="mg-banner__body">
        <h3 id={headingId} className="mg-banner__title">Divergence detected</h3>
        <ul className="mg-banner__alerts">
          {alerts.map((a) => (
            <li key={a.embedder} data-testid={`divergence-${a.embedder}`}>
              {(!sameSummary || alerts.length === 1) && (
                <p>
                  Recent activity in {a.embedderName} space: <q>{a.recentMemorySummary}</q>
                </p>
              )}
              {sameSummary && alerts.length > 1 && <span className="mg-banner__space">{a.embedderName} ({a.embedder}): </span>}
              <span>
                Current appears different - similarity: <strong data-testid={`divergence-sim-${a.embedder}`}>{fixed(a.similarity)}</strong>{' '}
                (threshold: <span data-testid={`divergence-threshold-${a.embedder}`}>{fixed(a.threshold)}</span>)
              </span>
            </li>
          ))}
        </ul>
        {sameSummary && alerts.length > 1 && (
          <p>
            Recent activity: <q>{summary}</q>
          </p>
        )}
        <p className="mg-banner__hint">This may indicate a context switch.</p>
        <p className="mg-muted mg-small" data-testid="divergence-note">
          Note: Divergence is only detected in non-temporal spaces ({checked}).
          {skipped && ` Temporal spaces (${skipped}) are not considered for divergence alerts.`}
        </p>
        {recent.length > 0 && (
          <details className="mg-banner__recent">
            <summary>Compared with {recent.length} recent {recent.length === 1 ? 'memory' : 'memories'}</summary>
            <ul>
              {recent.map((r) => (
                <li key={r.id}>{r.label}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
      <div className="mg-banner__actions">
        {onShowRecent && (
          <button
            type="button"
            className="mg-btn"
            data-testid="divergence-show-recent"
            disabled={recent.length === 0}
            onClick={() => onShowRecent(recent.map((r) => r.id))}
          >
            Show recent work
          </button>
        )}
        <button type="button" className="mg-btn mg-btn--quiet" data-testid="divergence-dismiss" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
