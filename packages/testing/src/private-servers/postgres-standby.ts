import { execFileSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../processes.js';
import { postgresBinaries, postgresCommand } from './postgres.js';
import { asUser, spawnServer, userIds, waitUntil, type ServerProcess } from './server-process.js';

/**
 * An asynchronous streaming standby of a private cluster (`startPrivatePostgres`): a base backup taken
 * with `pg_basebackup -R` and run on a free port. A test makes it miss commits the way asynchronous
 * replication does (`stopReceiving`: the primary commits, the standby never gets the WAL), then promotes
 * it as a failover would.
 */
export type PrivateStandby = {
  port: number;
  /** The project's database on the standby (read-only until promoted). */
  url: string;
  /** Waits until the standby has replayed every commit the primary has made so far. */
  catchUp: (primaryUrl: string) => Promise<void>;
  /** Stops streaming from the primary (as a lost link would): later commits never reach the standby. */
  stopReceiving: () => Promise<void>;
  /** `pg_promote()`: the standby becomes a primary with what it has. */
  promote: () => Promise<void>;
  destroy: () => Promise<void>;
};

const DATABASE_NAME = 'directory';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function startPrivateStandby(primaryPort: number, label: string): Promise<PrivateStandby> {
  const dir = await mkdtemp(join(tmpdir(), `private-pg-standby-${label}-`));
  const dataDir = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds('postgres');
    await chown(dir, uid, gid);
  }
  const [backup, backupArgs] = asUser('postgres', join(postgresBinaries(), 'pg_basebackup'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
  ]);
  execFileSync(backup, backupArgs, { stdio: 'pipe', timeout: 60_000 });

  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE_NAME}`;
  const [command, args] = postgresCommand(dataDir, port);
  const server: ServerProcess = spawnServer(command, args);
  await waitUntil(
    async () => {
      if (!server.running()) throw new Error('exited');
      return withClient(url, async (client) => {
        const receiving = await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_wal_receiver',
        );
        return receiving.rows[0]?.n === 1;
      });
    },
    30_000,
    () => `private standby on port ${port} did not start streaming:\n${server.output()}`,
  );

  return {
    port,
    url,
    catchUp: async (primaryUrl) => {
      const target = await withClient(primaryUrl, async (client) => {
        // The insert position, not pg_current_wal_lsn() (the write position): the private primary runs
        // with synchronous_commit=off, so a commit already answered can sit in the WAL buffers, behind
        // the write position, for up to the WAL writer's delay. Waiting for the insert position waits for
        // every commit made so far.
        const result = await client.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn');
        return result.rows[0]?.lsn ?? '0/0';
      });
      await waitUntil(
        () =>
          withClient(url, async (client) => {
            const result = await client.query<{ caught: boolean }>(
              'select pg_last_wal_replay_lsn() >= $1::pg_lsn as caught',
              [target],
            );
            return result.rows[0]?.caught === true;
          }),
        30_000,
        () => `the standby did not replay up to ${target}`,
      );
    },
    stopReceiving: async () => {
      await withClient(url, async (client) => {
        await client.query(`alter system set primary_conninfo = ''`);
        await client.query('select pg_reload_conf()');
      });
      await waitUntil(
        () =>
          withClient(url, async (client) => {
            const receiving = await client.query<{ n: number }>(
              'select count(*)::int as n from pg_stat_wal_receiver',
            );
            return receiving.rows[0]?.n === 0;
          }),
        30_000,
        () => 'the standby kept streaming',
      );
    },
    promote: async () => {
      await withClient(url, async (client) => {
        const promoted = await client.query<{ done: boolean }>('select pg_promote(true, 30) as done');
        if (promoted.rows[0]?.done !== true) throw new Error('pg_promote did not finish within 30 s');
      });
    },
    destroy: async () => {
      server.signalTree('SIGCONT');
      server.signalTree('SIGKILL');
      await server.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
