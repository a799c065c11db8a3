// The key: shapes and line styles as small CSS swatches, in the theme's colours. Collapsed by
// default ("Key"), and it sits under the drawing, so it never covers the top hit.
import type { GraphModel, NodeKind } from './model';
import type { GraphTheme } from './theme';

interface Item {
  kind: NodeKind;
  text: string;
  line?: 'solid' | 'dashed' | 'arrow' | 'dotted';
  lineText?: string;
}

const ITEMS: Item[] = [
  { kind: 'query', text: 'Your question' },
  { kind: 'standard', text: 'Found directly (closer = better match)', line: 'solid' },
  { kind: 'lateral', text: 'Lateral: far in meaning, shares your tags', line: 'dashed', lineText: 'lateral' },
  { kind: 'associative', text: 'Chain of related memories (step number)', line: 'arrow', lineText: '2' },
  { kind: 'tag', text: 'Tag' },
  { kind: 'alert', text: 'Far from your recent work', line: 'dotted' },
  { kind: 'recent', text: 'Recent memory' },
  { kind: 'entity', text: 'Shared name (brought in a memory)', line: 'dashed' },
];

export function Legend({ theme, model }: { theme: GraphTheme; model: GraphModel }) {
  const present = new Set(model.nodes.map((n) => n.kind));
  const items = ITEMS.filter((it) => ['query', 'standard', 'lateral', 'associative'].includes(it.kind) || present.has(it.kind));
  return (
    <details className="recall-graph__key" data-testid="graph-key">
      <summary>Key</summary>
      <div className="recall-graph__legend" style={{ background: theme.tooltipBg, color: theme.text, borderColor: theme.tooltipBorder }}>
        {items.map((it) => (
          <div key={it.kind} className="recall-graph__legend-row">
            <span className={`rg-swatch rg-swatch--${it.kind}`} style={{ background: theme.node[it.kind], color: theme.node[it.kind] }} />
            {it.line ? (
              <span
                className={`rg-line rg-line--${it.line}`}
                style={{
                  borderTopColor:
                    it.kind === 'lateral'
                      ? theme.edgeLateral
                      : it.kind === 'associative'
                        ? theme.edgeAssociative
                        : it.kind === 'alert'
                          ? theme.edgeDivergence
                          : it.kind === 'entity'
                            ? theme.node.entity
                            : theme.edge,
                  color: it.kind === 'associative' ? theme.badgeText : theme.edgeLateral,
                }}
              >
                {it.lineText && (
                  <span
                    className={it.kind === 'associative' ? 'rg-line__badge' : 'rg-line__text'}
                    style={it.kind === 'associative' ? { background: theme.badgeFill } : { background: theme.tooltipBg }}
                  >
                    {it.lineText}
                  </span>
                )}
              </span>
            ) : (
              <span className="rg-line rg-line--none" />
            )}
            <span>{it.text}</span>
          </div>
        ))}
        {model.nodes.some((n) => n.found) && (
          <div className="recall-graph__legend-row" data-testid="graph-key-found">
            <span className="rg-swatch rg-swatch--found" style={{ borderColor: theme.found }} />
            <span className="rg-line rg-line--dotted" style={{ borderTopColor: theme.found }} />
            <span>Found by looking deeper: ringed; the line says how (nearby in time, shared name, same group, or the pass that found it)</span>
          </div>
        )}
        {model.nodes.some((n) => n.earlier) && (
          <div className="recall-graph__legend-row" data-testid="graph-key-earlier">
            <span className="rg-swatch rg-swatch--earlier" style={{ background: theme.node.standard, color: theme.text }} />
            <span className="rg-line rg-line--none" />
            <span>Earlier version: struck through; an edit replaced it</span>
          </div>
        )}
      </div>
    </details>
  );
}
