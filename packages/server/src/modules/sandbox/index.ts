/** Test mode's sandboxes: made on first use, reset from empty, the demo or the live workspace, and described. */
export { ensureSandbox } from './ensure.js';
