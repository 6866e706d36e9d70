export { reindex } from './reindex.service.js';
// The replay's page size, for the benchmark's floor to read under the same memory cap.
export { REPLAY_PAGE } from './reindex-load.js';
export { SANDBOX_DEFAULTS, loadSandbox, type SandboxLoadSummary } from './sandbox.service.js';
export { SandboxRefusedError } from './sandbox-guard.js';
