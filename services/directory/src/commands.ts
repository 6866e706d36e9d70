/**
 * Every `directory` command: its one-line description and the function that runs it. Each command's
 * module is imported only when it runs, so a command loads only its own code; importing it runs
 * nothing. A command that parses its own arguments keeps its own options and `--help`. The imports are
 * static strings so that a bundler takes every command in.
 */
export type DirectoryCommand = {
  name: string;
  description: string;
  /**
   * True when the command parses its own arguments (subcommands, options, `--help`): everything after
   * its name is handed to it as it is. False for a process that takes no argument.
   */
  ownArguments: boolean;
  /** A server: it keeps running after `run` has returned, until a signal stops it. */
  keepsRunning: boolean;
  /** Runs the command with what follows its name (nothing for a command without `ownArguments`). */
  run: (argv: string[]) => Promise<void>;
};

export const DIRECTORY_COMMANDS: readonly DirectoryCommand[] = [
  {
    name: 'api',
    keepsRunning: true,
    description: 'serve the public HTTP API (API_PORT), until SIGTERM',
    ownArguments: false,
    run: async () => (await import('@directory/api/server')).startApiServer(),
  },
  {
    name: 'mcp',
    keepsRunning: true,
    description: 'serve the MCP tool server (MCP_PORT), until SIGTERM',
    ownArguments: false,
    run: async () => (await import('@directory/mcp/server')).startMcpServer(),
  },
  {
    name: 'console',
    keepsRunning: true,
    description: 'serve the key console (CONSOLE_PORT), until SIGTERM',
    ownArguments: false,
    run: async () => (await import('@directory/console/server')).startConsoleServer(),
  },
  {
    name: 'worker',
    keepsRunning: true,
    description: 'consume the ingest queue and keep the index in line with the store, until SIGTERM',
    ownArguments: false,
    run: async () => (await import('@directory/worker/main')).startWorker(),
  },
  {
    name: 'migrate',
    keepsRunning: false,
    description: 'create the database if needed and apply pending migrations (idempotent)',
    ownArguments: false,
    run: async () => (await import('@directory/database/migrate-cli')).runMigrateCommand(),
  },
  {
    name: 'ingest',
    keepsRunning: false,
    description: 'validate NDJSON place events and enqueue them (FILE|- [--wait])',
    ownArguments: true,
    run: async (argv) => (await import('@directory/ingest/cli')).runIngestCommand(argv),
  },
  {
    name: 'reindex',
    keepsRunning: false,
    description: 'rebuild the search index and swap the alias with no downtime',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/reindex-cli')).runReindexCommand(argv),
  },
  {
    name: 'keys',
    keepsRunning: false,
    description: 'API keys: create, list, revoke, roll',
    ownArguments: true,
    run: async (argv) => (await import('@directory/keys/cli')).runKeysCommand(argv),
  },
  {
    name: 'accounts',
    keepsRunning: false,
    description: 'console accounts: delete (keys revoked, webhooks removed, personal data erased)',
    ownArguments: true,
    run: async (argv) => (await import('@directory/keys/accounts-cli')).runAccountsCommand(argv),
  },
  {
    name: 'dead-letters',
    keepsRunning: false,
    description: 'rejected events and refused index documents: list, show, redrive, projections, retry',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/dead-letters-cli')).runDeadLettersCommand(argv),
  },
  {
    name: 'jobs',
    keepsRunning: false,
    description: 'failed ingest jobs: failed, retry',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/jobs-cli')).runJobsCommand(argv),
  },
  {
    name: 'webhooks',
    keepsRunning: false,
    description: "accounts' webhook endpoints: list, disable, block, unblock",
    ownArguments: true,
    run: async (argv) => (await import('@directory/webhooks/cli')).runWebhooksCommand(argv),
  },
  {
    name: 'db',
    keepsRunning: false,
    description: "PostgreSQL administration: grant-app-role (the services' least-privilege role)",
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/db-cli')).runDbCommand(argv),
  },
  {
    name: 'sandbox',
    keepsRunning: false,
    description: 'the sandbox dataset of test-mode keys: load (the deterministic sample data)',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/sandbox-cli')).runSandboxCommand(argv),
  },
  {
    name: 'duplicates',
    keepsRunning: false,
    description: 'candidate duplicate records of a dataset, with their evidence; --apply merges them',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/duplicates-cli')).runDuplicatesCommand(argv),
  },
  {
    name: 'fhir',
    keepsRunning: false,
    description: "a served record's FHIR resources as /fhir/R4 reads them (ID|PROFILE_URL)",
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/fhir-cli')).runFhirCommand(argv),
  },
  {
    name: 'status',
    keepsRunning: false,
    description: 'one screen for an operator: dependencies, queue, lag, dead letters; exit 1 to act',
    ownArguments: true,
    run: async (argv) => (await import('@directory/operator/status-cli')).runStatusCommand(argv),
  },
];
