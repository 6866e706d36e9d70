import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  INDEX_REFRESH_INTERVAL_MS,
  consoleMailSettings,
  databaseTimeouts,
  loadConfig,
  ownerDatabaseUrls,
  sandboxStoreNames,
} from '../src/config.js';

describe('loadConfig', () => {
  it('gives working local defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/doctor_directory');
    expect(config.API_PORT).toBe(3000);
    expect(config.MCP_PORT).toBe(3001);
    expect(config.CONSOLE_PORT).toBe(3002);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads and coerces values', () => {
    const config = loadConfig({ API_PORT: '8080', RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '2' });
    expect(config.API_PORT).toBe(8080);
    expect(config.RATE_LIMIT_MAX).toBe(5);
    expect(config.RATE_LIMIT_WINDOW_S).toBe(2);
  });

  it('names every bad variable in one error, without echoing values', () => {
    let error: unknown;
    try {
      loadConfig({
        DATABASE_URL: 'mysql://secret-password@db',
        API_PORT: 'eighty',
        SITE_ORIGIN: 'https://site.example/path',
        RATE_LIMIT_MAX: '0',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((problem) => problem.variable).sort();
    expect(problems).toEqual(['API_PORT', 'DATABASE_URL', 'RATE_LIMIT_MAX', 'SITE_ORIGIN']);
    expect((error as ConfigError).message).not.toContain('secret-password');
  });

  it('names a malformed URL as a configuration error', () => {
    expect(() => loadConfig({ DATABASE_URL: 'REPLACE-ME' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'REPLACE-ME' })).toThrow(/DATABASE_URL/);
  });

  it('refuses the development cursor, console and webhook secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CONSOLE_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/WEBHOOK_SECRET_KEY/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        CURSOR_SECRET: 'x'.repeat(40),
        CONSOLE_SECRET: 'y'.repeat(40),
        WEBHOOK_SECRET_KEY: 'z'.repeat(40),
      }).NODE_ENV,
    ).toBe('production');
  });

  it("requires the console's mail settings in production only, naming each one missing", () => {
    const secrets = {
      NODE_ENV: 'production',
      CURSOR_SECRET: 'x'.repeat(40),
      CONSOLE_SECRET: 'y'.repeat(40),
      WEBHOOK_SECRET_KEY: 'z'.repeat(40),
    };
    // Every other process starts without them.
    expect(() => consoleMailSettings(loadConfig(secrets))).toThrow(ConfigError);
    expect(() => consoleMailSettings(loadConfig(secrets))).toThrow(
      /SMTP_URL[\s\S]*MAIL_FROM[\s\S]*CONSOLE_PUBLIC_URL/,
    );
    const production = {
      ...secrets,
      SMTP_URL: 'smtps://user:pass@smtp.example.com',
      MAIL_FROM: 'Directory <no-reply@example.com>',
      CONSOLE_PUBLIC_URL: 'https://console.example.com/',
    };
    expect(consoleMailSettings(loadConfig(production))).toEqual({
      smtpUrl: 'smtps://user:pass@smtp.example.com',
      from: 'Directory <no-reply@example.com>',
      publicUrl: 'https://console.example.com',
    });
    expect(consoleMailSettings(loadConfig({}))).toEqual({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'Doctor Directory <no-reply@doctor-directory.example>',
      publicUrl: 'http://127.0.0.1:3002',
    });
    expect(() => loadConfig({ SMTP_URL: 'http://smtp.example.com' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ CONSOLE_PUBLIC_URL: 'https://console.example.com/app' })).toThrow(
      /CONSOLE_PUBLIC_URL/,
    );
    expect(() => loadConfig({ MAIL_FROM: 'a@example.com\nBcc: b@example.com' })).toThrow(/MAIL_FROM/);
  });

  it('bounds ingest batches by bytes: 8 MiB unless set, between 64 KiB and 64 MiB', () => {
    expect(loadConfig({}).INGEST_BATCH_MAX_BYTES).toBe(8 * 1024 * 1024);
    expect(loadConfig({ INGEST_BATCH_MAX_BYTES: '1048576' }).INGEST_BATCH_MAX_BYTES).toBe(1_048_576);
    for (const bad of ['1000', String(65 * 1024 * 1024), 'lots']) {
      expect(() => loadConfig({ INGEST_BATCH_MAX_BYTES: bad })).toThrow(/INGEST_BATCH_MAX_BYTES/);
    }
  });

  it('sizes the database pools: 10 connections, and 2 of their own for key look-ups', () => {
    expect(loadConfig({})).toMatchObject({ DATABASE_POOL_MAX: 10, DATABASE_KEY_POOL_MAX: 2 });
    expect(loadConfig({ DATABASE_POOL_MAX: '40', DATABASE_KEY_POOL_MAX: '4' })).toMatchObject({
      DATABASE_POOL_MAX: 40,
      DATABASE_KEY_POOL_MAX: 4,
    });
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
    expect(() => loadConfig({ DATABASE_KEY_POOL_MAX: 'two' })).toThrow(/DATABASE_KEY_POOL_MAX/);
  });

  it('puts the sandbox in a database and an alias of its own, never the live ones', () => {
    expect(sandboxStoreNames(loadConfig({}))).toEqual({
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/doctor_directory_sandbox',
      alias: 'doctors-sandbox',
    });
    const chosen = {
      SANDBOX_DATABASE_URL: 'postgres://reader@10.0.0.7:5432/sandbox',
      SANDBOX_ELASTICSEARCH_INDEX: 'doctors_sandbox',
    };
    expect(sandboxStoreNames(loadConfig(chosen))).toEqual({
      databaseUrl: chosen.SANDBOX_DATABASE_URL,
      alias: chosen.SANDBOX_ELASTICSEARCH_INDEX,
    });
    // Another user or options on the live database is still the live database.
    expect(() =>
      loadConfig({
        SANDBOX_DATABASE_URL: 'postgres://other@127.0.0.1:5432/doctor_directory?sslmode=disable',
      }),
    ).toThrow(/SANDBOX_DATABASE_URL: must name another database/);
    // The default port written out or left out, the host's case, loopback's spellings: the same database.
    for (const [live, sandbox] of [
      ['postgres://app@db/directory', 'postgres://app@db:5432/directory'],
      ['postgres://app@DB.internal:5432/directory', 'postgresql://app@db.internal/directory'],
      ['postgres://app@localhost/directory', 'postgres://app@127.0.0.1:5432/directory'],
      ['postgres://app@[::1]:5432/directory', 'postgres://app@localhost/direct%6Fry'],
    ]) {
      expect(() => loadConfig({ DATABASE_URL: live, SANDBOX_DATABASE_URL: sandbox })).toThrow(
        /SANDBOX_DATABASE_URL: must name another database/,
      );
    }
    // Another port or another database is another database.
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgres://app@db/directory',
        SANDBOX_DATABASE_URL: 'postgres://app@db:5433/directory',
      }),
    ).not.toThrow();
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgres://app@db/directory',
        SANDBOX_DATABASE_URL: 'postgres://app@db/sandbox',
      }),
    ).not.toThrow();
    expect(() => loadConfig({ ELASTICSEARCH_INDEX: 'docs', SANDBOX_ELASTICSEARCH_INDEX: 'docs' })).toThrow(
      /SANDBOX_ELASTICSEARCH_INDEX: must differ/,
    );
  });

  it('migrates as the owner (MIGRATION_DATABASE_URL) while the services connect as their own role', () => {
    const live = 'postgres://directory_app@db:5432/doctor_directory';
    const owner = 'postgres://directory:secret@db/doctor_directory';
    expect(ownerDatabaseUrls(loadConfig({ DATABASE_URL: live, MIGRATION_DATABASE_URL: owner }))).toEqual({
      live: owner,
      sandbox: 'postgres://directory:secret@db/doctor_directory_sandbox',
    });
    expect(ownerDatabaseUrls(loadConfig({ DATABASE_URL: live }))).toEqual({
      live,
      sandbox: 'postgres://directory_app@db:5432/doctor_directory_sandbox',
    });
    const sandbox = 'postgres://sandbox_owner@db2/sandbox';
    expect(
      ownerDatabaseUrls(
        loadConfig({ MIGRATION_DATABASE_URL: owner, DATABASE_URL: live, SANDBOX_DATABASE_URL: sandbox }),
      ).sandbox,
    ).toBe(sandbox);
    expect(() =>
      loadConfig({ DATABASE_URL: live, MIGRATION_DATABASE_URL: 'postgres://directory@db/another' }),
    ).toThrow(/MIGRATION_DATABASE_URL: must name the database DATABASE_URL names/);
  });

  it('reads the console settings', () => {
    const config = loadConfig({ CONSOLE_LOGIN_MAX_FAILURES: '3', CONSOLE_LOGIN_MAX_PER_ADDRESS: '9' });
    expect(config.CONSOLE_LOGIN_MAX_FAILURES).toBe(3);
    expect(config.CONSOLE_LOGIN_MAX_PER_ADDRESS).toBe(9);
  });

  it('reads trusted proxies as addresses or CIDRs and refuses the old boolean CONSOLE_TRUST_PROXY=true', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(
      loadConfig({ TRUSTED_PROXIES: '10.0.0.5, 192.168.0.0/24,::1,fd00::/8,loopback' }).TRUSTED_PROXIES,
    ).toEqual(['10.0.0.5', '192.168.0.0/24', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/1', '::1/129']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/TRUSTED_PROXIES/);
    }
    expect(loadConfig({ CONSOLE_TRUST_PROXY: 'false' }).TRUSTED_PROXIES).toEqual([]);
    expect(() => loadConfig({ CONSOLE_TRUST_PROXY: 'true' })).toThrow(
      /CONSOLE_TRUST_PROXY: is replaced by TRUSTED_PROXIES/,
    );
  });
  it('reads the IPv6 prefix that groups client addresses: 64 by default, 32 to 128', () => {
    expect(loadConfig({}).CLIENT_IPV6_PREFIX_BITS).toBe(64);
    expect(loadConfig({ CLIENT_IPV6_PREFIX_BITS: '48' }).CLIENT_IPV6_PREFIX_BITS).toBe(48);
    expect(loadConfig({ CLIENT_IPV6_PREFIX_BITS: '128' }).CLIENT_IPV6_PREFIX_BITS).toBe(128);
    for (const bad of ['31', '129', '64.5', 'sixty-four']) {
      expect(() => loadConfig({ CLIENT_IPV6_PREFIX_BITS: bad })).toThrow(/CLIENT_IPV6_PREFIX_BITS/);
    }
  });
  it('reads the MCP origin and host allowlists as comma-separated lists (empty by default)', () => {
    expect(loadConfig({}).MCP_ALLOWED_ORIGINS).toEqual([]);
    expect(loadConfig({}).MCP_ALLOWED_HOSTS).toEqual([]);
    const config = loadConfig({
      MCP_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173',
      MCP_ALLOWED_HOSTS: 'mcp.example.com,mcp.example.com:8443',
    });
    expect(config.MCP_ALLOWED_ORIGINS).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(config.MCP_ALLOWED_HOSTS).toEqual(['mcp.example.com', 'mcp.example.com:8443']);
    expect(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.com/' })).toThrow(
      /MCP_ALLOWED_ORIGINS/,
    );
    expect(() => loadConfig({ MCP_ALLOWED_HOSTS: 'https://mcp.example.com' })).toThrow(/MCP_ALLOWED_HOSTS/);
  });

  it('reads the operator listener settings: distinct default ports, 0 turns one off, a long enough token', () => {
    const defaults = loadConfig({});
    const ports = [
      defaults.API_OPS_PORT,
      defaults.MCP_OPS_PORT,
      defaults.CONSOLE_OPS_PORT,
      defaults.WORKER_OPS_PORT,
    ];
    expect(new Set(ports).size).toBe(4);
    expect(defaults.OPS_HOST).toBe('127.0.0.1');
    expect(defaults.OPS_TOKEN).toBeUndefined();
    expect(loadConfig({ WORKER_OPS_PORT: '0' }).WORKER_OPS_PORT).toBe(0);
    expect(() => loadConfig({ OPS_TOKEN: 'short' })).toThrow(/OPS_TOKEN/);
  });
});

describe('fault settings (database timeouts, shutdown, multi-node Elasticsearch)', () => {
  it('reads one Elasticsearch node or several, comma-separated', () => {
    expect(loadConfig({}).ELASTICSEARCH_URL).toEqual(['http://127.0.0.1:9200']);
    expect(
      loadConfig({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200, http://127.0.0.1:9201' }).ELASTICSEARCH_URL,
    ).toEqual(['http://127.0.0.1:9200', 'http://127.0.0.1:9201']);
    expect(() => loadConfig({ ELASTICSEARCH_URL: 'http://127.0.0.1:9200,ftp://x' })).toThrow(
      /ELASTICSEARCH_URL/,
    );
    expect(() => loadConfig({ ELASTICSEARCH_URL: ' , ' })).toThrow(/ELASTICSEARCH_URL/);
  });

  it('bounds a search whole at 2 s by default, never shorter than one attempt', () => {
    const defaults = loadConfig({});
    expect([defaults.ELASTICSEARCH_TIMEOUT_MS, defaults.SEARCH_DEADLINE_MS]).toEqual([1_500, 2_000]);
    expect(loadConfig({ SEARCH_DEADLINE_MS: '1500' }).SEARCH_DEADLINE_MS).toBe(1_500);
    expect(() => loadConfig({ SEARCH_DEADLINE_MS: '1499' })).toThrow(/SEARCH_DEADLINE_MS/);
  });

  it('reads shards and replicas (zero replicas allowed, zero shards not)', () => {
    const config = loadConfig({ ELASTICSEARCH_SHARDS: '2', ELASTICSEARCH_REPLICAS: '1' });
    expect([config.ELASTICSEARCH_SHARDS, config.ELASTICSEARCH_REPLICAS]).toEqual([2, 1]);
    expect(loadConfig({ ELASTICSEARCH_REPLICAS: '0' }).ELASTICSEARCH_REPLICAS).toBe(0);
    expect(() => loadConfig({ ELASTICSEARCH_SHARDS: '0' })).toThrow(/ELASTICSEARCH_SHARDS/);
  });

  it('drains servers for 5 s before the 8 s shutdown by default; 0 turns the drain off, a minute at most', () => {
    const defaults = loadConfig({});
    expect([defaults.SHUTDOWN_DRAIN_MS, defaults.SHUTDOWN_TIMEOUT_MS]).toEqual([5_000, 8_000]);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '0' }).SHUTDOWN_DRAIN_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '60000' }).SHUTDOWN_DRAIN_MS).toBe(60_000);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '60001' })).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '1.5' })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });

  it('gives request-serving processes short statement timeouts and jobs long ones', () => {
    const config = loadConfig({
      DATABASE_STATEMENT_TIMEOUT_MS: '1200',
      DATABASE_JOB_STATEMENT_TIMEOUT_MS: '90000',
    });
    expect(databaseTimeouts(config, 'request')).toEqual({
      connectTimeoutMs: 1_000,
      statementTimeoutMs: 1_200,
      idleInTransactionTimeoutMs: 10_000,
    });
    expect(databaseTimeouts(config, 'job').statementTimeoutMs).toBe(90_000);
    // The request budget stays inside the two seconds an API answer may take when the database hangs.
    const defaults = databaseTimeouts(loadConfig({}), 'request');
    expect(defaults.connectTimeoutMs).toBeLessThan(2_000);
    expect(defaults.statementTimeoutMs).toBeLessThan(2_000);
  });

  it('turns the hot-query cache on by default, with a TTL within the refresh interval, and off on request', () => {
    const defaults = loadConfig({});
    expect(defaults.SEARCH_CACHE).toBe('on');
    expect(defaults.SEARCH_CACHE_TTL_MS).toBe(500);
    expect(defaults.SEARCH_CACHE_MAX_ENTRIES).toBe(10_000);
    expect(defaults.SEARCH_CACHE_MAX_MB).toBe(64);
    expect(defaults.SEARCH_CACHE_ADMIT).toBe('repeated');
    expect(loadConfig({ SEARCH_CACHE_ADMIT: 'every' }).SEARCH_CACHE_ADMIT).toBe('every');
    expect(() => loadConfig({ SEARCH_CACHE_ADMIT: 'twice' })).toThrow(/SEARCH_CACHE_ADMIT/);
    expect(loadConfig({ SEARCH_CACHE: 'off' }).SEARCH_CACHE).toBe('off');
    expect(() => loadConfig({ SEARCH_CACHE: 'false' })).toThrow(/SEARCH_CACHE/);
    expect(loadConfig({ SEARCH_CACHE_TTL_MS: String(INDEX_REFRESH_INTERVAL_MS) }).SEARCH_CACHE_TTL_MS).toBe(
      1_000,
    );
    // An entry older than a refresh would serve answers staler than Elasticsearch's own.
    expect(() => loadConfig({ SEARCH_CACHE_TTL_MS: '1001' })).toThrow(/refresh interval/);
    expect(() => loadConfig({ SEARCH_CACHE_MAX_ENTRIES: '0' })).toThrow(/SEARCH_CACHE_MAX_ENTRIES/);
    // The index probe: every quarter second by default, 0 turns it off, two probes within a refresh.
    expect(defaults.SEARCH_CACHE_PROBE_MS).toBe(250);
    expect(loadConfig({ SEARCH_CACHE_PROBE_MS: '0' }).SEARCH_CACHE_PROBE_MS).toBe(0);
    expect(loadConfig({ SEARCH_CACHE_PROBE_MS: '500' }).SEARCH_CACHE_PROBE_MS).toBe(500);
    expect(() => loadConfig({ SEARCH_CACHE_PROBE_MS: '501' })).toThrow(
      /SEARCH_CACHE_PROBE_MS.*refresh interval/,
    );
    expect(() => loadConfig({ SEARCH_CACHE_PROBE_MS: '-1' })).toThrow(/SEARCH_CACHE_PROBE_MS/);
  });
});

describe('webhook settings', () => {
  it('defaults to a day of Standard-Webhooks-like retries, no loopback, and reads a list of delays', () => {
    expect(loadConfig({})).toMatchObject({
      WEBHOOK_ALLOW_LOOPBACK: false,
      WEBHOOK_RETRY_DELAYS_MS: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 28_800_000, 28_800_000],
      WEBHOOK_DISABLE_AFTER_MS: 86_400_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_POLL_MS: 250,
    });
    const set = loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '10, 20,30', WEBHOOK_ALLOW_LOOPBACK: 'true' });
    expect(set.WEBHOOK_RETRY_DELAYS_MS).toEqual([10, 20, 30]);
    expect(set.WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '10,soon' })).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'short' })).toThrow(/WEBHOOK_SECRET_KEY/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        CURSOR_SECRET: 'x'.repeat(40),
        CONSOLE_SECRET: 'y'.repeat(40),
        WEBHOOK_SECRET_KEY: 'z'.repeat(40),
        WEBHOOK_ALLOW_LOOPBACK: 'true',
      }),
    ).toThrow(/WEBHOOK_ALLOW_LOOPBACK/);
  });
});
