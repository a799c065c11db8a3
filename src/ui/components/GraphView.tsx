/** The place of the recall graph (src/ui/graph): wired by the lead to recall() results. */
export function GraphView() {
  return (
    <section className="card graph-view" aria-labelledby="graph-h" data-testid="graph-view">
      <h2 id="graph-h" className="card__title">
        Graph
      </h2>
      <p className="empty">Search for something to see how your memories connect.</p>
    </section>
  );
}
