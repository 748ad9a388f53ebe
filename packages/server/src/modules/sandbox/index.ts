/** Test mode's sandboxes: made on first use, reset from empty, the demo or the live workspace, and described. */
export { ensureSandbox } from './ensure.js';
export { type DemoFill, SANDBOX_RECORDS, type SandboxRecord, type SandboxRecordCounts } from './records.js';
export { deleteReplacedSandboxes, REPLACED_SANDBOX_KEPT_MS } from './replaced.js';
export { resetSandbox, type SandboxReset } from './reset.js';
export { type SandboxStatus, sandboxStatus } from './status.js';
