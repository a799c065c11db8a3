// The divergence alert, in plain words: "This is far from what you worked on in the last two
// hours: sourdough and fermentation." Shown only when the services say so (the core's evidence
// gate, then the Dismiss hold: src/services/divergence.ts); the per-space figures (best similarity
// to the recent work against each space's low threshold) and the rule that let it through sit
// behind "Details". A calm, non-blocking banner: it announces itself politely (role="status"),
// never takes focus, and can be dismissed (button or Escape) or used to jump to the recent work.
import { useId } from 'react';
import type { MemoryId, SpaceId } from '../../../core/types';
import { DEFAULT_SIMILARITY_CONFIG, DIVERGENCE_GATE, SPACE_IDS, type SimilarityConfig, type SpaceSims } from '../../../core/spaces';
import { spaceWords } from '../../app/format';
import { fixed } from './format';
import './panels.css';

export interface RecentMemoryRef {
  id: MemoryId;
  /** Short text shown for the memory (e.g. its first line). */
  label: string;
}

export interface DivergenceAlertBannerProps {
  /** The recent work in a few words (the services' `topic`). */
  topic: string;
  /** How far back "recent" reaches (the similarity settings' recent window). */
  hours: number;
  /** Best similarity to the recent work per content space. */
  best: SpaceSims;
  /** The semantic spaces that agree the topic changed. */
  agreeing: readonly SpaceId[];
  /** The recent window the current item was compared with, newest first. */
  recent: readonly RecentMemoryRef[];
  /** A capture or a question. */
  trigger?: 'capture' | 'search';
  config?: SimilarityConfig;
  /** Lines moved to the encoder's cosine scale by the engine (else the config's low thresholds). */
  lines?: Partial<Record<SpaceId, number>>;
  /** The meaning's line for the gate on that scale (else its line minus the gate's margin). */
  meaningLine?: number;
  /** "Show recent work": receives the recent memories' ids. */
  onShowRecent?: (ids: MemoryId[]) => void;
  onDismiss?: () => void;
  className?: string;
}

const SMALL = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** 2 -> "the last two hours", 1 -> "the last hour", 0.5 -> "the last 30 minutes". */
export function lastHoursWords(hours: number): string {
  if (!Number.isFinite(hours) || hours <= 0) return 'recently';
  if (hours === 1) return 'in the last hour';
  if (!Number.isInteger(hours)) return `in the last ${Math.round(hours * 60)} minutes`;
  return `in the last ${SMALL[hours] ?? String(hours)} hours`;
}

export function DivergenceAlertBanner(props: DivergenceAlertBannerProps) {
  const { topic, hours, best, agreeing, recent, trigger, onShowRecent, onDismiss, className } = props;
  const config = props.config ?? DEFAULT_SIMILARITY_CONFIG;
  const headingId = useId();
  const what = trigger === 'capture' ? 'This memory is' : 'This is';
  const rows = SPACE_IDS.filter((id) => !config.excluded[id] && best[id] !== undefined);
  const others = agreeing.length - 1;

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
          onDismiss?.();
        }
      }}
    >
      <div className="mg-banner__icon" aria-hidden="true">↯</div>
      <div className="mg-banner__body">
        <h3 id={headingId} className="mg-banner__title" data-testid="divergence-title">
          {what} far from what you worked on {lastHoursWords(hours)}
          {topic ? (
            <>
              : <q data-testid="divergence-topic">{topic}</q>
            </>
          ) : (
            '.'
          )}
        </h3>
        <p className="mg-banner__hint">
          Switching on purpose? Dismiss this and it stays quiet while your recent work is on this topic.
        </p>
        <details className="mg-banner__recent" data-testid="divergence-details">
          <summary>Details</summary>
          <p className="mg-small">
            Shown because the meaning and {others} other {others === 1 ? 'kind' : 'kinds'} of similarity agree that it is far from
            the {recent.length} recent {recent.length === 1 ? 'memory' : 'memories'}: in each, even the closest recent memory is
            below the line. (An alert needs {DIVERGENCE_GATE.minAgreeing} agreeing kinds, the meaning{' '}
            {props.meaningLine !== undefined ? `below ${fixed(props.meaningLine)}` : `at least ${fixed(DIVERGENCE_GATE.meaningMargin)} below its line`},{' '}
            {DIVERGENCE_GATE.minWindow} or more recent memories, and
            not the first step of a sitting.)
          </p>
          <table className="mg-banner__table" data-testid="divergence-figures">
            <thead>
              <tr>
                <th scope="col">kind of similarity</th>
                <th scope="col">closest recent</th>
                <th scope="col">line</th>
                <th scope="col">far?</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((id) => {
                const sim = best[id] ?? 0;
                const line = props.lines?.[id] ?? config.lowThresholds[id];
                return (
                  <tr key={id} data-testid={`divergence-${id}`}>
                    <th scope="row">
                      {spaceWords(id)} <span className="mg-muted">({id})</span>
                    </th>
                    <td data-testid={`divergence-sim-${id}`}>{fixed(sim)}</td>
                    <td data-testid={`divergence-threshold-${id}`}>{fixed(line)}</td>
                    <td>{sim < line ? 'yes' : 'no'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {recent.length > 0 && (
            <>
              <p className="mg-small">Compared with:</p>
              <ul>
                {recent.map((r) => (
                  <li key={r.id}>{r.label}</li>
                ))}
              </ul>
            </>
          )}
        </details>
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
        <button type="button" className="mg-btn mg-btn--quiet" data-testid="divergence-dismiss" onClick={() => onDismiss?.()}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
