import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The one place the environment is read. Every process calls `loadConfig()` once at start-up and
 * passes the frozen result down; nothing else touches `process.env`.
 */

const DEVELOPMENT_CURSOR_SECRET = 'development-only-cursor-secret-change-me';
const DEVELOPMENT_CONSOLE_SECRET = 'development-only-console-secret-change-me';
const DEVELOPMENT_WEBHOOK_SECRET_KEY = 'development-only-webhook-secret-key-change-me';

/** The index refresh interval (Elasticsearch's default, and what reindex sets): the cache's longest TTL and probe interval. */
export const INDEX_REFRESH_INTERVAL_MS = 1_000;

/** INGEST_BATCH_MAX_BYTES unless set: what the producer uses when its caller names no bound. */
export const DEFAULT_INGEST_BATCH_MAX_BYTES = 8 * 1024 * 1024;

/** What REINDEX_WAIT_FOR_HEALTH (and `reindex --wait-for-health`) accepts. */
export const REINDEX_HEALTH_SETTINGS = ['auto', 'green', 'yellow'] as const;

const port = z.coerce.number().int().min(1).max(65_535);
const positiveInt = z.coerce.number().int().positive();
const opsPort = z.coerce.number().int().min(0).max(65_535);
// Redis key prefixes and index names share Elasticsearch's stricter rules for index names.
const lowercaseName = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, - and _');

const urlWithProtocols = (protocols: string[]) =>
  // zod runs a refinement even after z.url() failed: check parsability here too, so a malformed URL is a
  // named configuration error, not a TypeError.
  z.url().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must use ${protocols.join(' or ')}`,
  });

/** `unix:///path/file.sock`: no host, and a path to a file (not the root). */
function isSocketUrl(value: string): boolean {
  const url = new URL(value);
  return url.host === '' && url.pathname.length > 1 && !url.pathname.endsWith('/');
}

/** A comma-separated list (blank items ignored), every item checked; the default is the empty list. */
const commaSeparated = (isValid: (item: string) => boolean, message: string) =>
  z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    )
    .refine((items) => items.every(isValid), { message })
    .transform((items): readonly string[] => Object.freeze(items));

/** An address or CIDR as Fastify's trustProxy (proxy-addr) reads it, or one of its named ranges. */
function isProxyAddress(item: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** `host:port` as REDIS_CLUSTER_NODES and REDIS_SENTINELS list them (a name or an IPv4 address). */
function isHostPort(item: string): boolean {
  const match = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(item);
  return match !== null && Number(match[2]) >= 1 && Number(match[2]) <= 65_535;
}
/** A name server as c-ares takes it: an address, `IPv4:port` or `[IPv6]:port`. */
function isDnsServer(item: string): boolean {
  if (isIP(item) !== 0) return true;
  const match = /^(?:\[([0-9a-f:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):(\d{1,5})$/i.exec(item);
  if (match === null) return false;
  const [, v6 = '', v4 = '', port] = match;
  const addressOk = v6 !== '' ? isIP(v6) === 6 : isIP(v4) === 4;
  return addressOk && Number(port) >= 1 && Number(port) <= 65_535;
}

const HOST_PORT_LIST_MESSAGE =
  'must be a comma-separated list of host:port such as 10.0.0.5:6379,10.0.0.6:6379';

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).default(
      'postgres://postgres@127.0.0.1:5432/doctor_directory',
    ),
    // The owner's connection, for what changes the schema or empties tables (`directory migrate`,
    // `db grant-app-role`, `sandbox load`); unset: DATABASE_URL. With it, DATABASE_URL may name the
    // services' least-privilege role (docs/deployment.md, "A role for the services").
    MIGRATION_DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
    // redis:// or rediss:// (TLS), or unix:///path/to/redis.sock for a Redis on the same machine (no
    // loopback TCP; the socket file's permissions are its access control).
    REDIS_URL: urlWithProtocols(['redis:', 'rediss:', 'unix:'])
      .refine((value) => !value.startsWith('unix:') || isSocketUrl(value), {
        message: 'a unix: URL names the socket file and no host, such as unix:///run/redis/redis.sock',
      })
      .default('redis://127.0.0.1:6379'),
    REDIS_PREFIX: lowercaseName.default('directory'),
    // Redis topology (docs/operations.md "Running at scale"): REDIS_URL (one server, the default), or a
    // Redis Cluster (REDIS_CLUSTER_NODES: some of its nodes), or a primary watched by Sentinel
    // (REDIS_SENTINELS and REDIS_SENTINEL_MASTER); REDIS_PASSWORD for the data nodes of the last two.
    REDIS_CLUSTER_NODES: commaSeparated(isHostPort, HOST_PORT_LIST_MESSAGE),
    REDIS_SENTINELS: commaSeparated(isHostPort, HOST_PORT_LIST_MESSAGE),
    REDIS_SENTINEL_MASTER: z
      .string()
      .regex(/^[\w.-]+$/, 'letters, digits, ., - and _')
      .optional(),
    REDIS_PASSWORD: z.string().min(1).optional(),
    // One node or several of one cluster (comma-separated); the client spreads requests and fails over.
    ELASTICSEARCH_URL: commaSeparated(
      (item) => URL.canParse(item) && ['http:', 'https:'].includes(new URL(item).protocol),
      'must be a comma-separated list of http(s) URLs such as http://127.0.0.1:9200,http://127.0.0.1:9201',
    )
      .refine((items) => items.length > 0, { message: 'must name at least one node' })
      .default(['http://127.0.0.1:9200']),
    ELASTICSEARCH_INDEX: lowercaseName.default('doctors'),
    // The sandbox dataset that `dk_test_` keys read (docs/api.md "Sandbox"; loaded by `directory sandbox
    // load`): a database and an alias of its own, never the live ones. Unset: DATABASE_URL's database
    // with `_sandbox` appended, and ELASTICSEARCH_INDEX with `-sandbox` (sandboxStoreNames).
    SANDBOX_DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']).optional(),
    SANDBOX_ELASTICSEARCH_INDEX: lowercaseName.optional(),
    // One attempt of a request to one node. A search that takes longer is answered with a 503: within
    // about two seconds, never a hang (docs/api.md, "Operations notes").
    ELASTICSEARCH_TIMEOUT_MS: positiveInt.default(1_500),
    // The whole of a search of the API and MCP server over several nodes, every node's attempt included: a
    // timed-out or refused attempt moves to the next node, and this bounds them together (one node: unused).
    SEARCH_DEADLINE_MS: positiveInt.default(2_000),
    // Hot-query cache (docs/operations.md, "Hot-query cache"): the API and MCP processes keep
    // Elasticsearch's answers in memory for SEARCH_CACHE_TTL_MS, at most the index refresh interval (1 s,
    // see search-index) so an answer is never older than one more refresh; longer only while a probe of
    // the index every SEARCH_CACHE_PROBE_MS (at most half the refresh interval; 0: no probe) sees no write.
    // Bounded by entries and by MB of answers (their JSON size). SEARCH_CACHE=off sends every request.
    // SEARCH_CACHE_ADMIT=repeated keeps a page of records or a record by id only when its request misses
    // again (one-off map viewports and ids are not kept); `every` keeps every answer at its first miss.
    SEARCH_CACHE: z.enum(['on', 'off']).default('on'),
    SEARCH_CACHE_ADMIT: z.enum(['repeated', 'every']).default('repeated'),
    SEARCH_CACHE_TTL_MS: positiveInt
      .max(INDEX_REFRESH_INTERVAL_MS, 'must not exceed the index refresh interval (1000 ms)')
      .default(500),
    SEARCH_CACHE_PROBE_MS: z.coerce
      .number()
      .int()
      .min(0)
      // Two probe intervals (a probe may answer one interval late) must fit in one refresh interval.
      .max(INDEX_REFRESH_INTERVAL_MS / 2, 'must not exceed half the index refresh interval (500 ms)')
      .default(250),
    SEARCH_CACHE_MAX_ENTRIES: positiveInt.default(10_000),
    SEARCH_CACHE_MAX_MB: positiveInt.max(4_096).default(64),
    // The typeahead's cities come from a table of each dataset's city spellings kept in process
    // (docs/operations.md, "Typeahead cities"): while the index changes it is used for this long before it
    // is read again, so city suggestions are at most about twice this behind. 0: read again at every change.
    SUGGEST_CITIES_REFRESH_MS: z.coerce.number().int().min(0).max(600_000).default(30_000),
    SITE_ORIGIN: urlWithProtocols(['https:', 'http:'])
      .refine((value) => new URL(value).pathname === '/' && !value.endsWith('/'), {
        message:
          'must be an origin without a path or trailing slash, e.g. https://www.doctor-directory.example',
      })
      .default('https://www.doctor-directory.example'),
    CURSOR_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEVELOPMENT_CURSOR_SECRET),
    API_PORT: port.default(3000),
    MCP_PORT: port.default(3001),
    // MCP transport hardening (DNS rebinding): browser origins allowed to call /mcp (none by default;
    // requests without Origin are non-browser clients and allowed) and extra Host values besides
    // 127.0.0.1:<MCP_PORT> and localhost:<MCP_PORT> (e.g. the public host behind a proxy).
    MCP_ALLOWED_ORIGINS: commaSeparated(
      (item) => URL.canParse(item) && new URL(item).origin === item,
      'must be a comma-separated list of origins such as https://app.example.com (scheme, host, optional port; no path or trailing slash)',
    ),
    MCP_ALLOWED_HOSTS: commaSeparated(
      (item) => /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/.test(item),
      'must be a comma-separated list of host[:port] values such as mcp.example.com or mcp.example.com:8443, lowercase',
    ),
    CONSOLE_PORT: port.default(3002),
    HOST: z.string().min(1).default('127.0.0.1'),
    RATE_LIMIT_MAX: positiveInt.default(120),
    RATE_LIMIT_WINDOW_S: positiveInt.default(60),
    INGEST_BATCH_SIZE: positiveInt.max(5_000).default(1_000),
    // A batch also closes before its job's JSON passes this many bytes, so a few huge events cannot make
    // a job Redis refuses (or a string V8 cannot build); an event bigger than it alone is a dead letter.
    INGEST_BATCH_MAX_BYTES: positiveInt
      .min(65_536)
      .max(64 * 1024 * 1024)
      .default(DEFAULT_INGEST_BATCH_MAX_BYTES),
    // The producer waits while the queue holds this many batches not yet taken by a worker, so a backfill
    // far bigger than the workers' pace is held in Redis a few batches deep, not whole.
    INGEST_MAX_QUEUED_BATCHES: positiveInt.default(100),
    WORKER_CONCURRENCY: positiveInt.max(64).default(4),
    // How long a job stays locked to a worker that stopped answering (crashed) before another takes it.
    WORKER_LOCK_DURATION_MS: positiveInt.min(1_000).default(30_000),
    SWEEP_INTERVAL_MS: positiveInt.default(5_000),
    // The sweeper leaves lag younger than this to the job that stored it (that job is projecting it),
    // so under load it does not refold in-flight places a second time; 0 sweeps all lag at once.
    SWEEP_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(15_000),
    // Console: HMAC key for CSRF tokens; sessions live this long (absolute); sign-in attempts per
    // email and address allowed in a window before 429 (see also the abuse-resistance block below).
    CONSOLE_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEVELOPMENT_CONSOLE_SECRET),
    CONSOLE_SESSION_TTL_S: positiveInt.default(43_200),
    CONSOLE_LOGIN_MAX_FAILURES: positiveInt.default(5),
    CONSOLE_LOGIN_WINDOW_S: positiveInt.default(900),
    // Faults (poison records, long outages, failed jobs): a batch that meets an infrastructure error is
    // retried without end, after a delay doubling from INGEST_RETRY_DELAY_MS up to INGEST_RETRY_MAX_DELAY_MS;
    // a job whose worker died on it (stalled) more than WORKER_MAX_STALLED_COUNT times is failed, listed by
    // `npm run jobs -- failed` and retried with `npm run jobs -- retry`.
    INGEST_RETRY_DELAY_MS: positiveInt.default(1_000),
    INGEST_RETRY_MAX_DELAY_MS: positiveInt.default(60_000),
    WORKER_MAX_STALLED_COUNT: positiveInt.default(10),
    // Each process's operator listener (/metrics, /livez, /readyz and, in the worker, the queue
    // dashboard) on its own port, bound to OPS_HOST; 0 turns a listener off. The dashboard is only
    // mounted with an OPS_TOKEN. Readiness checks each dependency within the timeout (docs/operations.md,
    // "Probes, metrics and the operator listener").
    OPS_HOST: z.string().min(1).default('127.0.0.1'),
    API_OPS_PORT: opsPort.default(9460),
    MCP_OPS_PORT: opsPort.default(9461),
    CONSOLE_OPS_PORT: opsPort.default(9462),
    WORKER_OPS_PORT: opsPort.default(9463),
    OPS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    READINESS_TIMEOUT_MS: positiveInt.max(10_000).default(1_000),
    // How often the worker samples queue counts and projection lag, and reconciles PostgreSQL with the index.
    OPS_SAMPLE_INTERVAL_MS: positiveInt.default(5_000),
    RECONCILE_INTERVAL_MS: positiveInt.default(60_000),
    // Faults (an unresponsive PostgreSQL, shutdown, multi-node Elasticsearch): every database pool gives
    // up connecting after DATABASE_CONNECT_TIMEOUT_MS; a statement is abandoned by the client after
    // DATABASE_STATEMENT_TIMEOUT_MS in request-serving processes (api, mcp, console: a 503 within about two
    // seconds) and after DATABASE_JOB_STATEMENT_TIMEOUT_MS in the worker and operator commands; the server
    // cancels statements after DATABASE_JOB_STATEMENT_TIMEOUT_MS and ends a session idle inside a
    // transaction after DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS (database defaults `npm run migrate`
    // sets: no start-up parameters, which a transaction-mode pooler refuses). SIGTERM closes
    // every process within SHUTDOWN_TIMEOUT_MS (after a server's drain) whatever its dependencies do. New indices get
    // ELASTICSEARCH_SHARDS primary shards and ELASTICSEARCH_REPLICAS replicas of each (1 on a two-node
    // cluster keeps every document on both nodes).
    DATABASE_CONNECT_TIMEOUT_MS: positiveInt.default(1_000),
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.default(1_000),
    DATABASE_JOB_STATEMENT_TIMEOUT_MS: positiveInt.default(60_000),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: positiveInt.default(10_000),
    // Connections of each service's PostgreSQL pool (api, mcp, console, worker; the worker needs
    // WORKER_CONCURRENCY + 2), and of the small pool of its own that API-key look-ups use in the api and
    // mcp processes, so a burst of long queries on the first (changes-feed pages) cannot make
    // authentication wait for a connection.
    DATABASE_POOL_MAX: positiveInt.max(1_000).default(10),
    DATABASE_KEY_POOL_MAX: positiveInt.max(100).default(2),
    // Exports (docs/api.md "Exports"): streaming at once per api process, live and sandbox (dk_test_)
    // keys apart so sandbox exports never take a live slot; at once per account and mode across every
    // process (leases in Redis); and the longest one response streams before it ends, resumable.
    EXPORTS_MAX_CONCURRENT: positiveInt.max(100).default(8),
    EXPORTS_MAX_CONCURRENT_TEST: positiveInt.max(100).default(4),
    EXPORTS_MAX_PER_ACCOUNT: positiveInt.max(100).default(2),
    EXPORTS_MAX_DURATION_MS: positiveInt.min(1_000).max(86_400_000).default(600_000),
    SHUTDOWN_TIMEOUT_MS: positiveInt.default(8_000),
    // How long a server (api, mcp, console) keeps answering after SIGTERM while its /readyz already
    // fails, so a load balancer takes it out of rotation before it stops accepting; 0: no drain
    // (docs/operations.md, "Shutdown and draining"). SHUTDOWN_TIMEOUT_MS counts from the end of the
    // drain, not from the signal: the close is sized by the dependencies' timeouts and the drain by how
    // fast the balancer notices, so neither eats the other's budget and a process stops within
    // SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS (the grace an orchestrator must give it). A minute at
    // most: a balancer that needs longer probes too rarely to follow restarts.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    ELASTICSEARCH_SHARDS: positiveInt.max(64).default(1),
    ELASTICSEARCH_REPLICAS: z.coerce.number().int().min(0).max(8).default(0),
    // The health a reindex's new index must reach before the alias swap (auto: green when it has
    // replicas, yellow otherwise), and how long it waits for it before giving up with the alias unchanged.
    REINDEX_WAIT_FOR_HEALTH: z.enum(REINDEX_HEALTH_SETTINGS).default('auto'),
    REINDEX_HEALTH_TIMEOUT_S: positiveInt.max(86_400).default(600),
    // Replaced by TRUSTED_PROXIES: trusting every peer's X-Forwarded-For let a client choose its address.
    CONSOLE_TRUST_PROXY: z
      .stringbool()
      .default(false)
      .refine((trust) => !trust, {
        message:
          'is replaced by TRUSTED_PROXIES: list the addresses (or CIDRs) of your proxies there, and remove CONSOLE_TRUST_PROXY',
      }),
    // Abuse resistance (docs/security.md): proxies whose X-Forwarded-For/-Proto is believed (API, MCP,
    // console; empty: the socket's peer is the client); failed API/MCP authentications per client
    // address per window before 429, and how long each 429 to such an address is held back; seconds an unknown key is remembered per process (0: never);
    // requests per account across all its keys per RATE_LIMIT_WINDOW_S; console sign-ups per address
    // per window; sign-in attempts per account (from any address) and per address, in the window
    // CONSOLE_LOGIN_WINDOW_S.
    TRUSTED_PROXIES: commaSeparated(
      isProxyAddress,
      'must be a comma-separated list of IP addresses or CIDRs such as 10.0.0.5,192.168.0.0/24 (or loopback, linklocal, uniquelocal)',
    ),
    // Every per-address limit counts an IPv6 client by its network of this many leading bits (one
    // subscriber usually holds a whole /64); IPv4 clients by their address.
    CLIENT_IPV6_PREFIX_BITS: z.coerce.number().int().min(32).max(128).default(64),
    AUTH_FAILURES_MAX: positiveInt.default(30),
    AUTH_FAILURES_WINDOW_S: positiveInt.default(60),
    AUTH_FAILURES_REFUSAL_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(250),
    UNKNOWN_KEY_CACHE_S: z.coerce.number().int().min(0).max(3_600).default(60),
    // How often the API and MCP processes hand key usage and last use on (docs/operations.md "Key usage").
    KEY_USAGE_FLUSH_INTERVAL_S: z.coerce.number().int().min(1).max(3_600).default(60),
    ACCOUNT_RATE_LIMIT_MAX: positiveInt.default(600),
    CONSOLE_SIGNUP_MAX: positiveInt.default(5),
    CONSOLE_SIGNUP_WINDOW_S: positiveInt.default(3_600),
    CONSOLE_LOGIN_MAX_PER_ACCOUNT: positiveInt.default(50),
    CONSOLE_LOGIN_MAX_PER_ADDRESS: positiveInt.default(30),
    // Signed webhooks (packages/webhooks): the key the endpoints' signing secrets are encrypted with
    // (AES-256-GCM) in the database; whether endpoints may be http://127.0.0.1, [::1] or localhost (tests
    // only: every other private address is refused whatever this says); the delays between a delivery's
    // attempts (after the last one it is failed); how long an endpoint may fail before it is disabled;
    // one attempt's time limit; how often the dispatcher reads the changes feed.
    WEBHOOK_SECRET_KEY: z
      .string()
      .min(32, 'must be at least 32 characters')
      .default(DEVELOPMENT_WEBHOOK_SECRET_KEY),
    WEBHOOK_ALLOW_LOOPBACK: z.stringbool().default(false),
    WEBHOOK_RETRY_DELAYS_MS: commaSeparated(
      (item) => /^\d{1,9}$/.test(item),
      'must be a comma-separated list of delays in milliseconds such as 5000,300000',
    )
      .transform((items): readonly number[] => Object.freeze(items.map(Number)))
      .default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000]),
    WEBHOOK_DISABLE_AFTER_MS: positiveInt.default(86_400_000),
    WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000).default(10_000),
    WEBHOOK_POLL_MS: positiveInt.max(60_000).default(250),
    // Webhook addresses (packages/webhooks, address-policy.ts): the ports an endpoint URL may name;
    // the name servers endpoint hosts are resolved with (empty: the system's), how long each try waits
    // and how many tries a query gets (the total also counts against WEBHOOK_TIMEOUT_MS).
    WEBHOOK_ALLOWED_PORTS: commaSeparated(
      (item) => /^\d{1,5}$/.test(item) && Number(item) >= 1 && Number(item) <= 65_535,
      'must be a comma-separated list of ports such as 443,8443',
    )
      .refine((items) => items.length > 0, { message: 'must list at least one port' })
      .transform((items): readonly number[] => Object.freeze(items.map(Number)))
      .default([443]),
    WEBHOOK_DNS_SERVERS: commaSeparated(
      isDnsServer,
      'must be a comma-separated list of name server addresses, each optionally with :port ([v6]:port)',
    ),
    WEBHOOK_DNS_TIMEOUT_MS: positiveInt.max(30_000).default(2_000),
    WEBHOOK_DNS_TRIES: positiveInt.max(5).default(2),
    // Retention (packages/webhooks, retention.ts): final deliveries (delivered, failed, abandoned) older
    // than this many days are deleted, in small batches, by one worker at a time every prune interval.
    WEBHOOK_DELIVERY_RETENTION_DAYS: positiveInt.max(3_650).default(14),
    WEBHOOK_DELIVERY_PRUNE_INTERVAL_MS: positiveInt.min(1_000).default(600_000),
    // Fair delivery (packages/webhooks, schedule.ts): attempts in flight per worker process, per
    // endpoint and per account (the last two across every worker); the pending deliveries one endpoint
    // may have before it is disabled (its receiver resyncs from the changes feed), and all endpoints
    // together before the dispatcher waits; what an account may do in the console per window.
    WEBHOOK_CONCURRENCY: positiveInt.max(256).default(8),
    WEBHOOK_ENDPOINT_CONCURRENCY: positiveInt.max(16).default(2),
    WEBHOOK_ACCOUNT_CONCURRENCY: positiveInt.max(64).default(4),
    WEBHOOK_MAX_PENDING_PER_ENDPOINT: positiveInt.default(10_000),
    WEBHOOK_MAX_PENDING: positiveInt.default(100_000),
    WEBHOOK_TEST_EVENTS_MAX: positiveInt.default(20),
    WEBHOOK_ENDPOINT_CHANGES_MAX: positiveInt.default(30),
    WEBHOOK_CONSOLE_WINDOW_S: positiveInt.default(3_600),
    // Console e-mail (verification and password-reset links): the SMTP server (smtp:// or smtps://,
    // credentials in the URL), the sender, and the origin the mailed links point at (what account holders
    // open: the console as they reach it). Unset outside production: a local receiver on 2525
    // (`npm run demo` starts one) and the console's own address; production must name all three.
    SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']).optional(),
    MAIL_FROM: z
      .string()
      .max(320)
      .refine((value) => value.includes('@') && !/[\r\n]/.test(value), {
        message: 'must be an address such as "Doctor Directory <no-reply@example.com>", on one line',
      })
      .optional(),
    CONSOLE_PUBLIC_URL: urlWithProtocols(['http:', 'https:'])
      .refine((value) => !URL.canParse(value) || new URL(value).origin === value.replace(/\/$/, ''), {
        message: 'must be an origin such as https://console.example.com (no path, query or fragment)',
      })
      .optional(),
    // Account e-mail limits (docs/security.md, "Account e-mail"): verification mails per account, reset
    // requests per e-mail address and per client address, password changes per account, all per window.
    CONSOLE_MAIL_WINDOW_S: positiveInt.default(3_600),
    CONSOLE_VERIFY_MAIL_MAX: positiveInt.default(5),
    CONSOLE_RESET_MAX_PER_EMAIL: positiveInt.default(3),
    CONSOLE_RESET_MAX_PER_ADDRESS: positiveInt.default(20),
    CONSOLE_PASSWORD_CHANGE_MAX: positiveInt.default(5),
  })
  // (A malformed DATABASE_URL is reported by its own rule; zod runs these refinements even then.)
  .refine(
    (env) =>
      !URL.canParse(env.DATABASE_URL) || !sameDatabase(sandboxStoreNames(env).databaseUrl, env.DATABASE_URL),
    {
      path: ['SANDBOX_DATABASE_URL'],
      message: "must name another database than DATABASE_URL: the sandbox's loader replaces its contents",
    },
  )
  .refine(
    (env) =>
      env.MIGRATION_DATABASE_URL === undefined ||
      !URL.canParse(env.DATABASE_URL) ||
      sameDatabase(env.MIGRATION_DATABASE_URL, env.DATABASE_URL),
    {
      path: ['MIGRATION_DATABASE_URL'],
      message: 'must name the database DATABASE_URL names (as its owner): migrations would go elsewhere',
    },
  )
  .refine((env) => env.SANDBOX_ELASTICSEARCH_INDEX !== env.ELASTICSEARCH_INDEX, {
    path: ['SANDBOX_ELASTICSEARCH_INDEX'],
    message: "must differ from ELASTICSEARCH_INDEX: the sandbox's loader replaces its index",
  })
  .refine((env) => env.SEARCH_DEADLINE_MS >= env.ELASTICSEARCH_TIMEOUT_MS, {
    path: ['SEARCH_DEADLINE_MS'],
    message: 'must be at least ELASTICSEARCH_TIMEOUT_MS (one attempt must fit in the whole search)',
  })
  .refine((env) => env.REDIS_SENTINELS.length === 0 || env.REDIS_SENTINEL_MASTER !== undefined, {
    path: ['REDIS_SENTINEL_MASTER'],
    message:
      'must name the monitored primary (as in the sentinels\' "sentinel monitor <name> …") when REDIS_SENTINELS is set',
  })
  .refine((env) => env.REDIS_SENTINEL_MASTER === undefined || env.REDIS_SENTINELS.length > 0, {
    path: ['REDIS_SENTINELS'],
    message: 'must list the sentinels (host:port,…) when REDIS_SENTINEL_MASTER is set',
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.CURSOR_SECRET !== DEVELOPMENT_CURSOR_SECRET, {
    path: ['CURSOR_SECRET'],
    message: 'must be set to a private value in production',
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.CONSOLE_SECRET !== DEVELOPMENT_CONSOLE_SECRET, {
    path: ['CONSOLE_SECRET'],
    message: 'must be set to a private value in production',
  })
  .refine((env) => env.NODE_ENV !== 'production' || !env.WEBHOOK_ALLOW_LOOPBACK, {
    path: ['WEBHOOK_ALLOW_LOOPBACK'],
    message: 'must not be true in production: it lets webhooks reach this machine',
  })
  .refine(
    (env) => env.NODE_ENV !== 'production' || env.WEBHOOK_SECRET_KEY !== DEVELOPMENT_WEBHOOK_SECRET_KEY,
    {
      path: ['WEBHOOK_SECRET_KEY'],
      message: 'must be set to a private value in production',
    },
  );

export type Config = Readonly<z.infer<typeof environmentSchema>>;

/** The console's mail settings (smtp URL, sender, the origin of the mailed links). */
export type ConsoleMailSettings = { smtpUrl: string; from: string; publicUrl: string };

/**
 * The console's mail settings, with development defaults (a local receiver on 2525, the console's own
 * address). In production each must be set: a ConfigError names every one missing. Checked by the
 * console at start-up only, so the other processes need none of them.
 */
export function consoleMailSettings(config: Config): ConsoleMailSettings {
  if (config.NODE_ENV === 'production') {
    const missing = (['SMTP_URL', 'MAIL_FROM', 'CONSOLE_PUBLIC_URL'] as const).filter(
      (variable) => config[variable] === undefined,
    );
    if (missing.length > 0)
      throw new ConfigError(
        missing.map((variable) => ({
          variable,
          reason: 'must be set in production: the console mails verification and password-reset links',
        })),
      );
  }
  return {
    smtpUrl: config.SMTP_URL ?? 'smtp://127.0.0.1:2525',
    from: config.MAIL_FROM ?? 'Doctor Directory <no-reply@doctor-directory.example>',
    publicUrl: (config.CONSOLE_PUBLIC_URL ?? `http://${config.HOST}:${config.CONSOLE_PORT}`).replace(
      /\/$/,
      '',
    ),
  };
}

/** Where the sandbox dataset lives: its database and the alias its index is read through. */
export type SandboxStoreNames = { databaseUrl: string; alias: string };

/** The sandbox's database and alias: as configured, or derived from the live ones (see the schema). */
export function sandboxStoreNames(config: {
  DATABASE_URL: string;
  ELASTICSEARCH_INDEX: string;
  SANDBOX_DATABASE_URL?: string | undefined;
  SANDBOX_ELASTICSEARCH_INDEX?: string | undefined;
}): SandboxStoreNames {
  let databaseUrl = config.SANDBOX_DATABASE_URL;
  if (databaseUrl === undefined) {
    const url = new URL(config.DATABASE_URL);
    url.pathname = `${url.pathname}_sandbox`;
    databaseUrl = url.toString();
  }
  return {
    databaseUrl,
    alias: config.SANDBOX_ELASTICSEARCH_INDEX ?? `${config.ELASTICSEARCH_INDEX}-sandbox`,
  };
}

/**
 * The owner's URLs of the live and the sandbox database, for the commands that change the schema or
 * empty tables: MIGRATION_DATABASE_URL (or DATABASE_URL), and the sandbox's as `sandboxStoreNames`
 * derives it from that (SANDBOX_DATABASE_URL, when set, is used as it is).
 */
export function ownerDatabaseUrls(config: Config): { live: string; sandbox: string } {
  const live = config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL;
  return { live, sandbox: sandboxStoreNames({ ...config, DATABASE_URL: live }).databaseUrl };
}

/**
 * One server's one database, whatever else the URLs say (user, options, the host's case, the default
 * port written out or not, loopback spelled `localhost`, `127.0.0.1` or `[::1]`). The sandbox loader has
 * its own guard (a marker row); this catches the mistake at start-up.
 */
function sameDatabase(a: string, b: string): boolean {
  if (!URL.canParse(a) || !URL.canParse(b)) return false;
  const [left, right] = [databaseIdentity(new URL(a)), databaseIdentity(new URL(b))];
  return left.host === right.host && left.port === right.port && left.database === right.database;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

function databaseIdentity(url: URL): { host: string; port: string; database: string } {
  const host = url.hostname.toLowerCase();
  return {
    host: LOOPBACK_HOSTS.has(host) ? 'loopback' : host,
    port: url.port === '' ? '5432' : url.port,
    database: decodedOrAsIs(url.pathname.slice(1)),
  };
}

function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a stray `%`: compared as written
  }
}

export class ConfigError extends Error {
  readonly problems: ReadonlyArray<{ variable: string; reason: string }>;

  constructor(problems: ReadonlyArray<{ variable: string; reason: string }>) {
    super(
      `Invalid environment:\n${problems.map((problem) => `  ${problem.variable}: ${problem.reason}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses the environment, reporting every bad variable at once (values are never echoed: they may be secrets). */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = environmentSchema.safeParse(relevant);
  const problems = [
    ...redisTopologyProblems(relevant),
    ...(result.success
      ? []
      : result.error.issues.map((issue) => ({
          variable: issue.path.join('.') || '(environment)',
          reason: issue.message,
        }))),
  ];
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(result.data);
}

/**
 * Exactly one Redis topology: REDIS_URL has a default, so it is read from the set variables here (a
 * REDIS_URL left beside a cluster or Sentinel setting would be silently ignored otherwise).
 */
function redisTopologyProblems(
  set: Record<string, string | undefined>,
): Array<{ variable: string; reason: string }> {
  const chosen = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'].filter(
    (variable) => set[variable] !== undefined && set[variable].trim() !== '',
  );
  if (chosen.length <= 1) return [];
  return [
    {
      variable: chosen.join(', '),
      reason:
        'choose one Redis topology: REDIS_URL (one server), REDIS_CLUSTER_NODES (a Redis Cluster) or REDIS_SENTINELS with REDIS_SENTINEL_MASTER (Sentinel)',
    },
  ];
}

/**
 * For process entry points: the configuration, or a clear message naming every bad variable and exit
 * code 2 (no stack trace: the operator needs the variable, not our source line).
 */
export function loadConfigOrExit(environment: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/** For the console's entry point: its mail settings, or the same clear message and exit code as above. */
export function consoleMailSettingsOrExit(config: Config): ConsoleMailSettings {
  try {
    return consoleMailSettings(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

/**
 * The database timeouts of a process: `request` for processes that answer HTTP requests (short, so an
 * unresponsive database becomes a 503 within about two seconds), `job` for the worker and operator
 * commands (long statements are normal there).
 */
export function databaseTimeouts(
  config: Config,
  kind: 'request' | 'job',
): { connectTimeoutMs: number; statementTimeoutMs: number; idleInTransactionTimeoutMs: number } {
  return {
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs:
      kind === 'request' ? config.DATABASE_STATEMENT_TIMEOUT_MS : config.DATABASE_JOB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}
