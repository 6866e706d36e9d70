/**
 * Every `directory` command: its one-line description and the module that runs it. Each module runs
 * its command when imported, reading `process.argv` like the script it also is (`npm run <command>`
 * before there was one command), so each keeps its own options and `--help`. The imports are static
 * strings so that a bundler takes every command in.
 */
export type DirectoryCommand = {
  name: string;
  description: string;
  /**
   * True when the command parses its own arguments (subcommands, options, `--help`): everything after
   * its name is handed to it as it is. False for a process that takes no argument.
   */
  ownArguments: boolean;
  /** A server: it keeps running after its module has loaded, until a signal stops it. */
  keepsRunning: boolean;
  run: () => Promise<unknown>;
};

export const DIRECTORY_COMMANDS: readonly DirectoryCommand[] = [
  {
    name: 'api',
    keepsRunning: true,
    description: 'serve the public HTTP API (API_PORT), until SIGTERM',
    ownArguments: false,
    run: () => import('@directory/api/server'),
  },
  {
    name: 'mcp',
    keepsRunning: true,
    description: 'serve the MCP tool server (MCP_PORT), until SIGTERM',
    ownArguments: false,
    run: () => import('@directory/mcp/server'),
  },
  {
    name: 'console',
    keepsRunning: true,
    description: 'serve the key console (CONSOLE_PORT), until SIGTERM',
    ownArguments: false,
    run: () => import('@directory/console/server'),
  },
  {
    name: 'worker',
    keepsRunning: true,
    description: 'consume the ingest queue and keep the index in line with the store, until SIGTERM',
    ownArguments: false,
    run: () => import('@directory/worker/main'),
  },
  {
    name: 'migrate',
    keepsRunning: false,
    description: 'create the database if needed and apply pending migrations (idempotent)',
    ownArguments: false,
    run: () => import('@directory/database/migrate-cli'),
  },
  {
    name: 'ingest',
    keepsRunning: false,
    description: 'validate NDJSON place events and enqueue them (FILE|- [--wait])',
    ownArguments: true,
    run: () => import('@directory/ingest/cli'),
  },
  {
    name: 'reindex',
    keepsRunning: false,
    description: 'rebuild the search index and swap the alias with no downtime',
    ownArguments: true,
    run: () => import('@directory/operator/reindex-cli'),
  },
  {
    name: 'keys',
    keepsRunning: false,
    description: 'API keys: create, list, revoke, roll',
    ownArguments: true,
    run: () => import('@directory/keys/cli'),
  },
  {
    name: 'dead-letters',
    keepsRunning: false,
    description: 'rejected events and refused index documents: list, show, redrive, projections, retry',
    ownArguments: true,
    run: () => import('@directory/operator/dead-letters-cli'),
  },
  {
    name: 'jobs',
    keepsRunning: false,
    description: 'failed ingest jobs: failed, retry',
    ownArguments: true,
    run: () => import('@directory/operator/jobs-cli'),
  },
  {
    name: 'webhooks',
    keepsRunning: false,
    description: "accounts' webhook endpoints: list, disable, block, unblock",
    ownArguments: true,
    run: () => import('@directory/webhooks/cli'),
  },
  {
    name: 'db',
    keepsRunning: false,
    description: "PostgreSQL administration: grant-app-role (the services' least-privilege role)",
    ownArguments: true,
    run: () => import('@directory/operator/db-cli'),
  },
  {
    name: 'sandbox',
    keepsRunning: false,
    description: 'the sandbox dataset of test-mode keys: load (the deterministic sample data)',
    ownArguments: true,
    run: () => import('@directory/operator/sandbox-cli'),
  },
  {
    name: 'status',
    keepsRunning: false,
    description: 'one screen for an operator: dependencies, queue, lag, dead letters; exit 1 to act',
    ownArguments: true,
    run: () => import('@directory/operator/status-cli'),
  },
];
