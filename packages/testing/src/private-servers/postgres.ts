import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { createDatabase, ensureDatabaseExists, migrateToLatest } from '@directory/database';
import { freePort } from '../processes.js';
import { asUser, spawnServer, userIds, waitUntil, type ServerProcess } from './server-process.js';

/**
 * A PostgreSQL cluster of a fault test's own (the machine's `initdb` and `postgres`, run as the `postgres`
 * user, in a temporary folder, on a free loopback port), holding the project's database migrated with the
 * project's migrator. The test stops, restarts, pauses (SIGSTOP: the server takes connections into the
 * kernel's backlog and answers nothing) and kills it; the shared server is never touched.
 */
export type PrivatePostgres = {
  port: number;
  /** The cluster's data folder (a benchmark may keep it and start the server on it again). */
  dataDir: string;
  /** The project's database on this cluster (migrated). */
  url: string;
  /** Starts the cluster again after `stop` or `kill` and waits until it accepts connections. */
  start: () => Promise<void>;
  /** Fast shutdown (SIGINT to the postmaster): sessions are ended, the port closes. */
  stop: () => Promise<void>;
  /** SIGKILL to the postmaster and every backend. */
  kill: () => Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections and queries hang until `resume`. */
  pause: () => void;
  resume: () => void;
  /** Kills the cluster and deletes its folder. */
  destroy: () => Promise<void>;
};

const POSTGRES_USER = 'postgres';
const DATABASE_NAME = 'directory';

/** The newest PostgreSQL installed under /usr/lib/postgresql (Debian's layout). */
export function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`no PostgreSQL server found under ${root} (apt-get install postgresql)`);
  return join(root, versions[0], 'bin');
}

/** A throw-away cluster's settings: durability is not what the tests are about, speed is. */
export const THROW_AWAY_SETTINGS: ReadonlyArray<string> = [
  '-c',
  'fsync=off',
  '-c',
  'synchronous_commit=off',
  '-c',
  'full_page_writes=off',
  '-c',
  'shared_buffers=32MB',
];

/**
 * The server command of a private cluster (`postgres -D … -p …`), run as the `postgres` user;
 * `settings` are its `-c name=value` arguments (a benchmark passes durable ones).
 */
export function postgresCommand(
  dataDir: string,
  port: number,
  settings: ReadonlyArray<string> = THROW_AWAY_SETTINGS,
): [string, string[]] {
  return asUser(POSTGRES_USER, join(postgresBinaries(), 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    ...settings,
  ]);
}

export async function startPrivatePostgres(
  label: string,
  options: { settings?: ReadonlyArray<string> } = {},
): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  const dir = await mkdtemp(join(tmpdir(), `private-pg-${label}-`));
  const dataDir = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds(POSTGRES_USER);
    await chown(dir, uid, gid);
  }
  const [initdb, initdbArgs] = asUser(POSTGRES_USER, join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-sync',
  ]);
  execFileSync(initdb, initdbArgs, { stdio: 'pipe' });

  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE_NAME}`;
  let server: ServerProcess | undefined;

  const start = async () => {
    const [command, args] = postgresCommand(dataDir, port, options.settings);
    const started = spawnServer(command, args);
    server = started;
    await waitUntil(
      async () => {
        if (!started.running()) throw new Error('exited');
        const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1_000 });
        await client.connect();
        await client.end();
        return true;
      },
      30_000,
      () => `private PostgreSQL on port ${port} did not accept connections:\n${started.output()}`,
    );
  };
  const postmasterPid = async () =>
    Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const waitForExit = async (what: string) => {
    const current = server;
    if (!current) return;
    await Promise.race([
      current.exited,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`private PostgreSQL did not exit after ${what}`)), 30_000),
      ),
    ]);
  };

  await start();
  await ensureDatabaseExists(url);
  const db = createDatabase(url, { maxConnections: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }

  const kill = async () => {
    server?.signalTree('SIGCONT');
    server?.signalTree('SIGKILL');
    await waitForExit('SIGKILL');
  };
  return {
    port,
    dataDir,
    url,
    start,
    stop: async () => {
      if (!server?.running()) return;
      server.signalTree('SIGCONT');
      process.kill(await postmasterPid(), 'SIGINT');
      await waitForExit('a fast shutdown');
    },
    kill,
    pause: () => server?.signalTree('SIGSTOP'),
    resume: () => server?.signalTree('SIGCONT'),
    destroy: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
