import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, ensureAccount } from '@directory/keys';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  REPOSITORY_ROOT,
  createTestDatabase,
  directoryArguments,
  runToExit,
  type FinishedProcess,
  createTestRedis,
  createTestSearch,
  type TestDatabase,
} from '@directory/testing';
import { DIRECTORY_COMMANDS } from '../src/commands.js';

/** `directory …` (the build the project's processes run: `directoryArguments`), stdout and stderr apart. */
function directory(args: string[], env: Record<string, string> = {}): Promise<FinishedProcess> {
  return runToExit(directoryArguments(args), { ...process.env, ...env });
}

describe('directory (the one operator and process command)', () => {
  let test: TestDatabase;
  const redis = createTestRedis('directory-cli');
  const search = createTestSearch('directory-cli');
  const alias = `${search.prefix}-doctors`;
  let env: Record<string, string>;
  beforeAll(async () => {
    test = await createTestDatabase('directory-cli');
    await ensureDoctorsIndex(search.client, alias, { shards: 1, replicas: 0 });
    env = { DATABASE_URL: test.url, REDIS_PREFIX: redis.prefix, ELASTICSEARCH_INDEX: alias };
  });
  afterAll(async () => {
    await test.drop();
    await redis.cleanup();
    await search.cleanup();
  });

  it('lists every command with one line each, and prints the version of the root package.json', async () => {
    const [help, version] = await Promise.all([directory(['--help']), directory(['--version'])]);
    expect(help.code).toBe(0);
    for (const command of DIRECTORY_COMMANDS)
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command.name} +\\S`, 'm'));
    const rootPackage = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(version).toEqual({ code: 0, stdout: `${rootPackage.version}\n`, stderr: '' });
  });

  it('exits 2 on an unknown command, an unknown option and a bad argument; --help of a command is its own', async () => {
    const [unknownCommand, unknownOption, badArgument, keysHelp, apiHelp] = await Promise.all([
      directory(['nope']),
      directory(['keys', 'list', '--nope']),
      directory(['jobs', 'failed', '--limit', 'many']),
      directory(['keys', '--help']),
      directory(['api', '--help']),
    ]);
    expect(unknownCommand.code, unknownCommand.stderr).toBe(2);
    expect(unknownCommand.stderr).toMatch(/unknown command 'nope'/);
    expect(unknownOption.code, unknownOption.stderr).toBe(2);
    expect(unknownOption.stderr).toMatch(/unknown option '--nope'/);
    expect(badArgument.code, badArgument.stderr).toBe(2);
    expect(badArgument.stderr).toMatch(/must be a positive integer/);
    expect(keysHelp.code).toBe(0);
    expect(keysHelp.stdout).toMatch(/Usage: keys .*\n[\s\S]*revoke <id>/);
    expect(apiHelp.code).toBe(0);
    expect(apiHelp.stdout).toMatch(/Usage: directory api/);
  });

  it('keys list --json: one parseable document on stdout, listing the key', async () => {
    const account = await ensureAccount(test.db, 'directory-cli@example.com');
    const { key } = await createApiKey(test.db, { accountId: account.id, name: 'json\u001b[31m key' });
    const listed = await directory(['keys', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const document = JSON.parse(listed.stdout) as { keys: Array<Record<string, unknown>> };
    expect(document.keys).toEqual([
      {
        id: key.id,
        name: 'json\u001b[31m key',
        prefix: key.prefix,
        createdAt: key.creationTime.toISOString(),
        revokedAt: null,
        expiresAt: null,
        lastUsedAt: null,
        state: 'active',
        mode: 'live',
      },
    ]);
    // Nothing raw a terminal obeys, though the parsed name is exact.
    expect(listed.stdout).not.toContain('\u001b');
  });

  it('status --json: one parseable document, and an exit code that matches it', async () => {
    const status = await directory(['status', '--json'], env);
    const document = JSON.parse(status.stdout) as {
      ok: boolean;
      attention: string[];
      dependencies: Array<{ name: string; ready: boolean }>;
      deadLettersPending: number | null;
    };
    expect(document.dependencies.map(({ name, ready }) => ({ name, ready }))).toEqual([
      { name: 'postgresql', ready: true },
      { name: 'redis', ready: true },
      { name: 'elasticsearch', ready: true },
    ]);
    expect(document.deadLettersPending).toBe(0);
    expect(document.ok).toBe(document.attention.length === 0);
    expect(status.code, status.stderr).toBe(document.ok ? 0 : 1);
  });

  it('exits 3 when a dependency does not answer, saying which', async () => {
    const closedPort = 'postgres://postgres@127.0.0.1:1/directory';
    const [keys, status] = await Promise.all([
      directory(['keys', 'list', '--json'], { ...env, DATABASE_URL: closedPort }),
      directory(['status', '--json'], { ...env, DATABASE_URL: closedPort }),
    ]);
    expect(keys.code, keys.stderr).toBe(3);
    expect(keys.stdout).toBe('');
    expect(keys.stderr).toMatch(/^directory keys: .*ECONNREFUSED/m);
    expect(status.code, status.stderr).toBe(3);
    const document = JSON.parse(status.stdout) as { dependencies: Array<{ name: string; ready: boolean }> };
    expect(document.dependencies.find(({ name }) => name === 'postgresql')?.ready).toBe(false);
  });
});
