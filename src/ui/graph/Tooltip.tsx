// The tooltip of the hovered or focused node: its kind and hop, label, when it happened, how well
// it matches (in words), detail and tags.
import { kindName, type GraphNode } from './model';
import { formatDate, recallMatch } from '../app/format';
import type { GraphTheme } from './theme';

export interface Tip {
  node: GraphNode;
  x: number;
  y: number;
}

/** Keeps the tooltip inside the graph: it opens to the lower right unless that would overflow. */
export function placeTip(node: GraphNode, x: number, y: number, w: number, h: number): Tip {
  return { node, x: x > w - 310 ? x - 320 : x, y: y > h - 150 ? y - 150 : y };
}

export function Tooltip({ tip, theme }: { tip: Tip; theme: GraphTheme }) {
  const n = tip.node;
  return (
    <div
      className="recall-graph__tooltip"
      role="presentation"
      style={{
        left: tip.x,
        top: tip.y,
        background: theme.tooltipBg,
        color: theme.tooltipText,
        borderColor: theme.tooltipBorder,
      }}
    >
      <div className="recall-graph__tooltip-kind" style={{ color: theme.node[n.kind] }}>
        {kindName(n.kind)}
        {n.kind !== 'query' && n.kind !== 'tag' && Number.isFinite(n.hop) ? ` · hop ${n.hop}` : ''}
      </div>
      <div className="recall-graph__tooltip-label">{n.label}</div>
      {n.when !== undefined && <div className="recall-graph__tooltip-when">{formatDate(n.when)}</div>}
      {n.score !== undefined && <div>{recallMatch(n.score).words}</div>}
      {n.detail && <div>{n.detail}</div>}
      {n.earlier && <div data-testid="graph-tooltip-earlier">Earlier version: an edit replaced it</div>}
      {n.found && <div>{n.found.by === 'deep' ? `Found by deeper search: ${n.found.how}` : `Found by looking again: ${n.found.how}`}</div>}
      {n.tags.length > 0 && <div className="recall-graph__tooltip-tags">{n.tags.map((t) => `#${t}`).join(' ')}</div>}
      {n.memoryId && <div className="recall-graph__tooltip-hint">Click or press Enter to open</div>}
    </div>
  );
}
