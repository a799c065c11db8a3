// The associative walk's scope preference (the design prefers same-scope neighbours; our scope is
// the session): a neighbour in another session than its parent is weighed by this factor.
export const CROSS_SCOPE_PENALTY = 0.9;
