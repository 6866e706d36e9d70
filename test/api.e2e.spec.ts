import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '@directory/domain';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  REPOSITORY_ROOT,
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  startProcess,
  type RunningProcess,
  type TestDatabase,
  type TestRedis,
  type TestSearch,
  freePort,
} from '@directory/testing';

const run = promisify(execFile);

// Two API processes and the operator CLI, started as a user would: keys, limits and revocation are
// shared through PostgreSQL and Redis, never through process memory.
describe('npm run api, two processes, npm run keys', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let search: TestSearch;
  const apis: RunningProcess[] = [];
  const bases: string[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase('api-e2e');
    redis = createTestRedis('api-e2e');
    search = createTestSearch('api-e2e');
    const alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias);
    env = {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redis.prefix,
      ELASTICSEARCH_INDEX: alias,
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '5',
      RATE_LIMIT_WINDOW_S: '60',
      LOG_LEVEL: 'info',
    };
    for (let index = 0; index < 2; index += 1) {
      const port = await freePort();
      const api = startProcess('services/api/src/server.ts', [], { ...env, API_PORT: String(port) });
      apis.push(api);
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(apis.map((api) => api.waitForOutput(/Server listening/)));
  });

  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop('SIGKILL')));
    await redis.cleanup();
    await search.cleanup();
    await database.drop();
  });

  const keys = (...args: string[]) =>
    run('npx', ['tsx', 'packages/keys/src/keys.cli.ts', ...args], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
    });
  const getKey = (base: string, secret: string) =>
    fetch(`${base}/api/v1/key`, { headers: { authorization: `Bearer ${secret}` } });

  it('serves the key created with the CLI, shares one quota, and honours a CLI revocation at once', async () => {
    const created = await keys('create', '--account', 'e2e@example.com', '--name', 'e2e');
    const secret = created.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(isWellFormedApiKey(secret)).toBe(true);
    const [first = '', second = ''] = bases;

    const statuses: number[] = [];
    for (const base of [first, second, first, second, first, second]) {
      const response = await getKey(base, secret);
      statuses.push(response.status);
      if (response.status === 200) expect(response.headers.get('ratelimit-policy')).toBe('5;w=60');
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    const { stdout } = await keys('list', '--account', 'e2e@example.com');
    const id = stdout.trimEnd().split('\n')[1]?.split('\t')[0] ?? '';
    await keys('revoke', id);
    for (const base of [first, second]) {
      const response = await getKey(base, secret);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }

    const unauthenticated = await fetch(`${first}/openapi.json`);
    expect((await unauthenticated.json()) as { info: { version: string } }).toMatchObject({
      info: { version: '1.1.0' },
    });
    for (const api of apis) expect(api.output()).not.toContain(secret);
  });

  it('closes gracefully on SIGTERM', async () => {
    const [api] = apis;
    if (api === undefined) throw new Error('no api');
    expect(await api.stop('SIGTERM')).toBe(0);
    expect(api.output()).toMatch(/"msg":"closing"/);
  });
});
