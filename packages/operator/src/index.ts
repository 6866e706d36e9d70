export { reindex } from './reindex.service.js';
export {
  SANDBOX_DEFAULTS,
  SandboxHoldsAccountsError,
  loadSandbox,
  type SandboxLoadSummary,
} from './sandbox.service.js';
