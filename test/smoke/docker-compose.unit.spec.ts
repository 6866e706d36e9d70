import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { loadConfig, type Config } from '@directory/config';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// No Docker engine runs here, so the compose file is validated against the Compose specification's JSON
// schema (the copy dclint ships, the Compose linter `npm run lint:docker` runs) and kept consistent with
// the versions the local scripts use, the image the Dockerfile builds and the config schema.
type Healthcheck = { test?: string[]; disable?: boolean };
type ComposeService = {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: Healthcheck;
  restart?: string;
  stop_grace_period?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
};
type ComposeFile = { services: Record<string, ComposeService> };

const composeText = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
// Compose resolves YAML merge keys (`<<: *app`); so does this parse.
const compose = parse(composeText, { merge: true }) as ComposeFile;
const servicesScript = readFileSync(new URL('../../infra/local/services.sh', import.meta.url), 'utf8');

const BACKING_SERVICES = ['postgres', 'redis', 'elasticsearch'];
/** The long-running processes and the settings that name their public and operator ports. */
const PROCESSES = {
  api: { port: 'API_PORT', opsPort: 'API_OPS_PORT' },
  mcp: { port: 'MCP_PORT', opsPort: 'MCP_OPS_PORT' },
  console: { port: 'CONSOLE_PORT', opsPort: 'CONSOLE_OPS_PORT' },
  worker: { port: undefined, opsPort: 'WORKER_OPS_PORT' },
} as const satisfies Record<string, { port: keyof Config | undefined; opsPort: keyof Config }>;
/** The one-shot services that run as the database's owner: the migrations, then the services' role. */
const OWNER_SERVICES = ['migrate', 'db-role'];
const APP_SERVICES = [...OWNER_SERVICES, ...Object.keys(PROCESSES)];

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

/** `${NAME:?message}` and `${NAME:-default}` as Compose interpolates them. */
function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(
    /\$\{(\w+)(?::([?-])([^}]*))?\}/g,
    (_, name: string, kind: string | undefined, fallback: string | undefined) =>
      variables[name] ?? (kind === '-' ? (fallback ?? '') : ''),
  );
}

function durationMs(duration: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (match === null) throw new Error(`unsupported duration ${duration}`);
  return Number(match[1]) * { ms: 1, s: 1_000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
}

const SECRETS = {
  CURSOR_SECRET: 'a-cursor-secret-of-thirty-two-characters-or-more',
  CONSOLE_SECRET: 'a-console-secret-of-thirty-two-characters-or-more',
  WEBHOOK_SECRET_KEY: 'a-webhook-secret-key-of-thirty-two-characters-or-more',
};

/** A service's configuration, its secrets set as an operator's .env would. */
function appConfig(name = 'api'): Config {
  const environment = Object.fromEntries(
    Object.entries(service(name).environment ?? {}).map(([variable, value]) => [
      variable,
      interpolate(String(value), SECRETS),
    ]),
  );
  return loadConfig(environment);
}

describe('docker-compose.yml', () => {
  it('declares the three backing services', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(BACKING_SERVICES));
  });

  it('runs the same Elasticsearch version as services.sh', () => {
    const localVersion = /ES_VERSION="([^"]+)"/.exec(servicesScript)?.[1];
    expect(localVersion).toBeDefined();
    expect(compose.services.elasticsearch?.image).toBe(
      `docker.elastic.co/elasticsearch/elasticsearch:${localVersion}`,
    );
  });

  it('keeps Redis durable and never evicting queued jobs', () => {
    expect(compose.services.redis?.command).toEqual(
      expect.arrayContaining(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']),
    );
  });

  it('is valid against the Compose specification schema', () => {
    const dclintDirectory = dirname(createRequire(import.meta.url).resolve('dclint/package.json'));
    const schema = JSON.parse(
      readFileSync(join(dclintDirectory, 'schemas/compose.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    // The schema names its draft by an https URL Ajv does not know; it is draft-07, Ajv's default.
    const validate = new Ajv({ allErrors: true, strict: false }).compile({ ...schema, $schema: undefined });
    // Validated as Compose reads it, anchors and merge keys resolved.
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs migrate once, then every process, all from the image the Dockerfile builds', () => {
    for (const name of APP_SERVICES) {
      expect(service(name).build, name).toBe('.');
      expect(service(name).image, name).toBe(service('migrate').image);
    }
    expect(service('migrate').command).toEqual(['migrate']);
    expect(service('migrate').restart).toBe('no');
    const healthy = Object.fromEntries(
      BACKING_SERVICES.map((name) => [name, { condition: 'service_healthy' }]),
    );
    expect(service('migrate').depends_on).toEqual(healthy);
    const migrated = { ...healthy, migrate: { condition: 'service_completed_successfully' } };
    expect(service('db-role').command).toEqual(['db', 'grant-app-role']);
    expect(service('db-role').restart).toBe('no');
    expect(service('db-role').depends_on).toEqual(migrated);
    for (const name of Object.keys(PROCESSES)) {
      expect(service(name).command).toEqual([name]);
      expect(service(name).depends_on).toEqual({
        ...migrated,
        'db-role': { condition: 'service_completed_successfully' },
      });
    }
  });

  it('gives every process one environment, valid for the config schema in production', () => {
    // The same configuration everywhere; a process may add Node's own options (the worker's heap flag).
    // The owner's connection only for the one-shot services: the processes connect as their own role.
    const environments = APP_SERVICES.map((name) => {
      const {
        NODE_OPTIONS: _nodeOptions,
        MIGRATION_DATABASE_URL: ownerUrl,
        ...configuration
      } = service(name).environment ?? {};
      expect(ownerUrl === undefined, name).toBe(!OWNER_SERVICES.includes(name));
      return configuration;
    });
    for (const environment of environments) expect(environment).toEqual(environments[0]);
    // The processes as `directory_app` (its password a default a .env may override), the owner apart.
    expect(new URL(appConfig('api').DATABASE_URL).username).toBe('directory_app');
    expect(new URL(appConfig('api').DATABASE_URL).password).toBe('directory-app-local');
    expect(new URL(appConfig('migrate').MIGRATION_DATABASE_URL ?? '').username).toBe('postgres');
    const config = appConfig();
    expect(config.NODE_ENV).toBe('production');
    // The secrets come from the operator's shell or .env file, never from this file.
    expect(composeText).toContain('CURSOR_SECRET: ${CURSOR_SECRET:?');
    // The console's SMTP server too (it carries credentials, and production needs one).
    expect(composeText).toContain('SMTP_URL: ${SMTP_URL:?');
    expect(composeText).toContain('CONSOLE_SECRET: ${CONSOLE_SECRET:?');
    expect(composeText).toContain('WEBHOOK_SECRET_KEY: ${WEBHOOK_SECRET_KEY:?');
  });

  it("publishes each process's ports on loopback only and probes its operator listener", () => {
    const config = appConfig();
    for (const [name, settings] of Object.entries(PROCESSES)) {
      const ports = [settings.port, settings.opsPort]
        .filter((setting) => setting !== undefined)
        .map((setting) => `127.0.0.1:${config[setting]}:${config[setting]}`);
      expect(service(name).ports).toEqual(ports);
      expect(service(name).healthcheck?.test).toEqual([
        'CMD',
        'node',
        'deploy/docker/healthcheck.mjs',
        name,
        '/readyz',
      ]);
    }
    for (const ports of Object.values(compose.services).map((entry) => entry.ports ?? [])) {
      for (const port of ports) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('gives each process time to drain and close before it is killed, hardened', () => {
    const config = appConfig();
    for (const name of APP_SERVICES) {
      expect(durationMs(service(name).stop_grace_period ?? '10s')).toBeGreaterThan(
        config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS,
      );
      expect(service(name)).toMatchObject({ read_only: true, tmpfs: ['/tmp'], cap_drop: ['ALL'] });
    }
  });
});
