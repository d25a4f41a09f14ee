// The rule lives with the scorecard so the bench's own exit 3 and the gate cannot disagree.
export { comparable } from '../scorecard/coverage.js';
