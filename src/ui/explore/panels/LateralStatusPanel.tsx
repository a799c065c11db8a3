// The lateral evaluator's status: one plain sentence first (on or off, how many shown, how many
// found useful or pushed away) and the auto-tuning rule in effect; the six figures (Enabled,
// Threshold, Samples, LUR, LSR, LHI) with what each means sit behind a "details" disclosure.
// Every evaluation window the
// share of lateral results that were reinforced (LUR) switches lateral mode off when very low,
// raises the distance threshold when low, and changes nothing otherwise.
import { useId } from 'react';
import { BASE_DEFAULTS, formatLateralStatus, type LateralStatus, type TuningAction } from '../../../core/recall';
// The rule in effect is decided by the core (the evaluator's own table); only the words are here.
import { tuningRuleInEffect, type TuningRuleInEffect } from '../../../core/recall';
import { fixed } from './format';
import { onOff } from '../../app/format';
import './panels.css';

export interface LateralStatusPanelProps {
  status: LateralStatus;
  /** Lateral returns between two evaluations (RecallOptions.evaluationWindow). Default 20. */
  evaluationWindow?: number;
  /** Offered when lateral mode was auto-disabled (LateralEvaluator.reEnable()). */
  onReEnable?: () => void;
  className?: string;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const raisedBy = (factor: number) => pct(factor - 1);

function ruleText({ rule, table: t, nextEvaluationAt: nextAt }: TuningRuleInEffect): string {
  switch (rule) {
    case 'disabled':
      return `Lateral mode was turned off automatically because fewer than ${pct(t.disableBelow)} of lateral results were reinforced. Re-enable it to start counting afresh.`;
    case 'no-samples':
      return `No lateral results returned yet. The first evaluation happens after ${nextAt} returns.`;
    case 'no-feedback':
      return `No feedback on lateral results yet, so auto-tuning leaves lateral mode as it is: reinforce or suppress a lateral result to start it (next evaluation after ${nextAt} returns).`;
    case 'disable':
      return `The share found useful is below ${fixed(t.disableBelow)}: at the next evaluation (after ${nextAt} returns) lateral mode will be turned off.`;
    case 'tighten':
      return `The share found useful is below ${fixed(t.tightenBelow)}: at the next evaluation (after ${nextAt} returns) the distance threshold is raised by ${raisedBy(t.tightenFactor)}, so only more distant memories qualify.`;
    case 'steady':
      return `The share found useful is between ${fixed(t.tightenBelow)} and ${fixed(t.healthyAbove)}: no change. Next evaluation after ${nextAt} returns.`;
    case 'healthy':
      return `The share found useful is above ${fixed(t.healthyAbove)}: lateral mode is healthy, no change. Next evaluation after ${nextAt} returns.`;
  }
}

function lastActionText(action: TuningAction, t: TuningRuleInEffect['table']): string {
  switch (action) {
    case 'none':
      return 'not evaluated yet';
    case 'no-feedback':
      return 'no feedback yet, no change';
    case 'disable':
      return 'turned lateral mode off';
    case 'tighten':
      return `raised the threshold by ${raisedBy(t.tightenFactor)}`;
    case 'healthy':
      return 'healthy, no change';
    case 'steady':
      return 'no change';
  }
}

/** The status in one plain sentence: what a person wants to know before any figure. */
export function lateralSummary(st: LateralStatus): string {
  const state = st.enabled ? 'On: the Divergent way of recalling adds distant memories that share a theme.' : 'Off: no recall adds distant memories for now.';
  if (st.samples === 0) return `${state} None shown yet.`;
  const shown = st.samples === 1 ? '1 shown so far' : `${st.samples} shown so far`;
  return `${state} ${shown}; you marked ${st.reinforced} useful and pushed ${st.suppressed} away.`;
}

interface Metric {
  key: 'enabled' | 'threshold' | 'samples' | 'lur' | 'lsr' | 'lhi';
  label: string;
  value: string;
  help: string;
  /** The expert's name and formula, behind "details". */
  formula?: string;
}

export function LateralStatusPanel(props: LateralStatusPanelProps) {
  const { status: st, onReEnable, className } = props;
  const evalWindow = props.evaluationWindow ?? BASE_DEFAULTS.evaluationWindow;
  const headingId = useId();
  const inEffect = tuningRuleInEffect(st, evalWindow);
  const { rule, table } = inEffect;

  // Plain names first; the abbreviations (LUR / LSR / LHI) and their formulas sit behind "details".
  const metrics: Metric[] = [
    { key: 'enabled', label: 'Far-but-related results', value: onOff(st.enabled), help: 'Whether distant memories that share tags are added to results.' },
    { key: 'threshold', label: 'How far counts as far', value: fixed(st.threshold), help: 'Distance from the question beyond which a memory counts as far (tuned by itself).' },
    { key: 'samples', label: 'Shown so far', value: String(st.samples), help: 'Far-but-related results shown since they were (re-)enabled.' },
    { key: 'lur', label: 'Found useful', value: fixed(st.lur), help: 'Share of them you marked useful.', formula: `LUR, Lateral Utility Rate = reinforced / returned (${st.reinforced} / ${st.samples})` },
    { key: 'lsr', label: 'Pushed away', value: fixed(st.lsr), help: 'Share of them you suppressed: are they noise?', formula: `LSR, Lateral Suppression Rate = suppressed / returned (${st.suppressed} / ${st.samples})` },
    {
      key: 'lhi',
      label: 'Negative feedback',
      value: fixed(st.lhi),
      help: 'Of all your feedback on them, the share that was negative.',
      formula: `LHI, Lateral Hallucination Index = suppressed / (reinforced + suppressed) (${st.suppressed} / ${st.reinforced + st.suppressed})`,
    },
  ];

  return (
    <section className={`mg-x mg-card mg-lateral ${className ?? ''}`} data-testid="lateral-status" data-rule={rule} aria-labelledby={headingId}>
      <header className="mg-card__head">
        <h3 id={headingId} className="mg-card__title">Far-but-related results</h3>
        <span className={`mg-badge ${st.enabled ? 'mg-badge--on' : 'mg-badge--off'}`}>{st.enabled ? 'on' : 'off'}</span>
      </header>
      <p className="mg-lateral__summary" data-testid="lateral-status-summary">
        {lateralSummary(st)}
      </p>
      <div className={`mg-rule mg-rule--${rule}`} data-testid="lateral-status-rule">
        <h4 className="mg-subtitle">Auto-tuning</h4>
        <p>{ruleText(inEffect)}</p>
        <details className="mg-muted mg-small">
          <summary>details</summary>
          Evaluated every {evalWindow} lateral returns · LUR &lt; {fixed(table.disableBelow)} turns lateral off · LUR &lt; {fixed(table.tightenBelow)} raises the
          threshold by {raisedBy(table.tightenFactor)} · LUR &gt; {fixed(table.healthyAbove)} is healthy. Last evaluation: {lastActionText(st.lastAction, table)}.
        </details>
        {!st.enabled && onReEnable && (
          <button type="button" className="mg-btn mg-btn--primary" data-testid="lateral-reenable" onClick={onReEnable}>
            Re-enable lateral mode
          </button>
        )}
      </div>
      <details className="mg-details mg-lateral__figures" data-testid="lateral-status-details">
        <summary>Details: the six figures</summary>
        <dl className="mg-metrics">
          {metrics.map((m) => (
            <div key={m.key} className="mg-metric" data-testid={`lateral-status-${m.key}`}>
              <dt>{m.label}</dt>
              <dd>
                <span className="mg-metric__value" data-testid={`lateral-status-${m.key}-value`}>{m.value}</span>
                <span className="mg-muted mg-small mg-metric__help">{m.help}</span>
                {m.formula && (
                  <details className="mg-small mg-metric__details">
                    <summary>details</summary>
                    {m.formula}
                  </details>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </details>
      <details className="mg-details mg-small">
        <summary>As text (memory_status)</summary>
        <pre className="mg-pre" data-testid="lateral-status-text">{formatLateralStatus(st)}</pre>
      </details>
    </section>
  );
}
