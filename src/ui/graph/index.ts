// Public surface of the recall graph.
export { RecallGraph, type RecallGraphProps, type RecallGraphHandle, type LayoutInfo } from './RecallGraph';
export {
  buildGraphModel,
  nodeAriaLabel,
  QUERY_NODE_ID,
  memoryNodeId,
  type GraphModel,
  type GraphModelInput,
  type GraphNode,
  type GraphEdge,
  type NodeKind,
  type EdgeKind,
  type MemoryKind,
  type RecallResultInput,
  type DivergenceInput,
  type FoundBy,
  type GraphFilters,
  type GraphDepth,
  GRAPH_DEPTHS,
} from './model';
export { THEMES, resolveTheme, type GraphTheme, type ThemePreference } from './theme';
