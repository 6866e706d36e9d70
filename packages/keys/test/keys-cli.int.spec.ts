import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '@directory/domain';
import { createTestDatabase, createTestRedis, nodeArguments, type TestDatabase } from '@directory/testing';
import { findActiveKeyBySecret } from '../src/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run keys (operator CLI)', () => {
  let test: TestDatabase;
  // Revokes and rolls bar the key in Redis first: under a prefix of this file's own.
  const redis = createTestRedis('keys-cli');
  beforeAll(async () => {
    test = await createTestDatabase('keys-cli');
  });
  afterAll(async () => {
    await test.drop();
    await redis.cleanup();
  });

  const keys = (...args: string[]) =>
    run(process.execPath, nodeArguments('packages/keys/src/keys.cli.ts', args), {
      cwd: root,
      env: { ...process.env, DATABASE_URL: test.url, REDIS_PREFIX: redis.prefix },
    });

  it('creates a key, printing the secret alone as the last stdout line and nothing else on stdout', async () => {
    const { stdout, stderr } = await keys('create', '--account', 'cli@example.com', '--name', 'cli key');
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const secret = lines.at(-1) ?? '';
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(stderr).toContain('cli key');
    expect(stderr).not.toContain(secret);
    expect(await findActiveKeyBySecret(test.db, secret)).not.toBeNull();
  });

  it('lists (id, name, prefix, created, revoked, expires, last used, state, mode) and revokes; a sixth active key is refused clearly', async () => {
    for (let index = 0; index < 4; index += 1)
      await keys('create', '--account', 'cli@example.com', '--name', `k${index}`);
    const sixth = keys('create', '--account', 'cli@example.com', '--name', 'sixth');
    const refused = (await sixth.then(
      () => null,
      (error: unknown) => error,
    )) as { code?: number; stderr?: string } | null;
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/5 active API keys/);

    const { stdout } = await keys('list', '--account', 'cli@example.com');
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header).toBe('id\tname\tprefix\tcreated\trevoked\texpires\tlast used\tstate\tmode');
    expect(rows).toHaveLength(5);
    expect(rows.map((row) => row.split('\t')[8])).toEqual(['live', 'live', 'live', 'live', 'live']);
    const id = rows[0]?.split('\t')[0] ?? '';
    await keys('revoke', id);
    const after = await keys('list');
    const revokedRow = after.stdout.split('\n').find((row) => row.startsWith(id));
    expect(revokedRow?.split('\t')[4]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(revokedRow?.split('\t')[7]).toBe('revoked');
    await expect(keys('revoke', 'no-such-id')).rejects.toMatchObject({ code: 1 });
  }, 180_000);

  it('creates an expiring key and rolls it: the new secret is printed, the old one works for the grace period', async () => {
    const created = await keys(
      'create',
      '--account',
      'roll@example.com',
      '--name',
      'rolling',
      '--expires',
      '30',
    );
    const oldSecret = created.stdout.trim();
    const [row] = (await keys('list', '--account', 'roll@example.com')).stdout.trimEnd().split('\n').slice(1);
    const [id, , , createdAt, revoked, expires, lastUsed, state] = row?.split('\t') ?? [];
    expect([revoked, lastUsed, state]).toEqual(['-', '-', 'active']);
    expect(Date.parse(expires ?? '') - Date.parse(createdAt ?? '')).toBe(30 * 86_400_000);

    const rolled = await keys('roll', id ?? '', '--grace', '1h');
    const newSecret = rolled.stdout.trim();
    expect(isWellFormedApiKey(newSecret)).toBe(true);
    expect(rolled.stderr).not.toContain(newSecret);
    expect((await findActiveKeyBySecret(test.db, oldSecret))?.id).toBe(id);
    expect((await findActiveKeyBySecret(test.db, newSecret))?.name).toBe('rolling');
    const states = (await keys('list', '--account', 'roll@example.com')).stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t')[7]);
    expect(states.sort()).toEqual(['active', 'retiring']);
    // Rolled once already: rolling the old key again is refused.
    await expect(keys('roll', id ?? '', '--grace', 'none')).rejects.toMatchObject({ code: 1 });
    // A grace the command does not offer is a usage error.
    await expect(keys('roll', id ?? '', '--grace', '2h')).rejects.toMatchObject({ code: 2 });
  }, 180_000);

  it('creates a test (sandbox) key with --mode test, says so, and lists each key with its mode', async () => {
    const live = await keys('create', '--account', 'modes@example.com', '--name', 'live one');
    expect(live.stdout.trim()).toMatch(/^dk_live_/);
    expect(live.stderr).toContain('created live key');

    const sandbox = await keys(
      'create',
      '--account',
      'modes@example.com',
      '--name',
      'sandbox',
      '--mode',
      'test',
    );
    const secret = sandbox.stdout.trim();
    expect(secret).toMatch(/^dk_test_/);
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(sandbox.stderr).toContain('created test key');
    expect(sandbox.stderr).not.toContain(secret);
    expect(await findActiveKeyBySecret(test.db, secret)).toMatchObject({ name: 'sandbox', mode: 'test' });

    const rows = (await keys('list', '--account', 'modes@example.com')).stdout.trimEnd().split('\n').slice(1);
    const modes = new Map(rows.map((row) => [row.split('\t')[1], row.split('\t')[8]]));
    expect(modes).toEqual(
      new Map([
        ['live one', 'live'],
        ['sandbox', 'test'],
      ]),
    );

    // A mode the command does not offer is a usage error, and creates nothing.
    const refused = keys('create', '--account', 'modes@example.com', '--name', 'odd', '--mode', 'staging');
    await expect(refused).rejects.toMatchObject({ code: 2 });
    const after = await keys('list', '--account', 'modes@example.com');
    expect(after.stdout.trimEnd().split('\n')).toHaveLength(3);
  }, 180_000);
});
