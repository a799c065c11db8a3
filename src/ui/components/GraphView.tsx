// The 'graph' view of the shell is the Explore view (src/ui/explore).
export { ExploreView as GraphView } from '../explore/ExploreView';
