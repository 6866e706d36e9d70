import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWellFormedApiKey } from '@directory/domain';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import { findActiveKeyBySecret } from '../src/index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('npm run keys (operator CLI)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('keys-cli');
  });
  afterAll(() => test.drop());

  const keys = (...args: string[]) =>
    run('npx', ['tsx', 'packages/keys/src/keys.cli.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: test.url },
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

  it('lists (id, name, prefix, created, revoked) and revokes; a sixth active key is refused clearly', async () => {
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
    expect(header).toBe('id\tname\tprefix\tcreated\trevoked');
    expect(rows).toHaveLength(5);
    const id = rows[0]?.split('\t')[0] ?? '';
    await keys('revoke', id);
    const after = await keys('list');
    const revokedRow = after.stdout.split('\n').find((row) => row.startsWith(id));
    expect(revokedRow?.split('\t')[4]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await expect(keys('revoke', 'no-such-id')).rejects.toMatchObject({ code: 1 });
  });
});
