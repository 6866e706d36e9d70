import { execFileSync } from 'node:child_process';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createNetworkNamespace, type NetworkNamespace } from '../network-namespace.js';
import { freePort } from '../processes.js';
import { postgresBinaries, postgresCommand, startPrivatePostgres } from './postgres.js';
import { asUser, spawnServer, userIds, waitUntil, type ServerProcess } from './server-process.js';

/**
 * A private primary (root namespace, listening on loopback and on its end of a veth pair) and an
 * asynchronous streaming standby running inside a network namespace of the test's own, replicating over
 * the pair through a physical replication slot. `network.cut()` partitions the two; the test still reaches
 * the standby through its Unix socket (a path in the file system, not in any network namespace).
 * Timeouts are short so that both sides notice a silent link within seconds: `wal_sender_timeout` and
 * `wal_receiver_timeout` 3 s, `connect_timeout` 2 s, a reconnect attempt every second.
 */
export type PartitionedReplication = {
  network: NetworkNamespace;
  /** The project's database on the primary, over loopback. */
  primaryUrl: string;
  /** Connection settings of the standby's Unix socket (usable while the network is cut). */
  standbyConfig: pg.ClientConfig;
  /** The replication slot and `application_name` of the standby. */
  standbyName: string;
  destroy: () => Promise<void>;
};

const DATABASE_NAME = 'directory';
const STANDBY_NAME = 'partitioned_standby';

async function withClient<T>(config: pg.ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function startPartitionedReplication(label: string): Promise<PartitionedReplication> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const destroy = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch {
        // Keep cleaning up.
      }
    }
  };
  try {
    const network = createNetworkNamespace(label);
    cleanups.push(() => network.destroy());

    const primary = await startPrivatePostgres(`${label}-primary`);
    cleanups.push(() => primary.destroy());
    const primaryUrl = primary.url;
    const { dataDir: primaryData, hbaFile } = await withClient(
      { connectionString: primaryUrl },
      async (c) => {
        await c.query(`select pg_create_physical_replication_slot('${STANDBY_NAME}')`);
        const data = await c.query<{ setting: string }>(
          `select current_setting('data_directory') as setting`,
        );
        const hba = await c.query<{ setting: string }>(`select current_setting('hba_file') as setting`);
        return { dataDir: data.rows[0]!.setting, hbaFile: hba.rows[0]!.setting };
      },
    );
    await appendFile(hbaFile, `host replication all ${network.namespaceAddress}/32 trust\n`);
    // Restarted by hand: the helper's command line fixes listen_addresses to loopback, a later -c wins.
    await primary.stop();
    const [primaryCommand, primaryArgs] = postgresCommand(primaryData, primary.port);
    const primaryServer: ServerProcess = spawnServer(primaryCommand, [
      ...primaryArgs,
      '-c',
      `listen_addresses=127.0.0.1,${network.hostAddress}`,
      '-c',
      'wal_sender_timeout=3s',
    ]);
    cleanups.push(async () => {
      primaryServer.signalTree('SIGCONT');
      primaryServer.signalTree('SIGKILL');
      await primaryServer.exited;
    });
    await waitUntil(
      async () => {
        if (!primaryServer.running()) throw new Error('exited');
        return withClient({ connectionString: primaryUrl }, () => Promise.resolve(true));
      },
      30_000,
      () => `the restarted primary did not accept connections:\n${primaryServer.output()}`,
    );

    const dir = await mkdtemp(join(tmpdir(), `private-pg-partitioned-${label}-`));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    if (process.getuid?.() === 0) {
      const { uid, gid } = userIds('postgres');
      await chown(dir, uid, gid);
    }
    const dataDir = join(dir, 'data');
    const [backup, backupArgs] = asUser('postgres', join(postgresBinaries(), 'pg_basebackup'), [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', dataDir],
      ...['-R', '-X', 'stream', '-c', 'fast', '-S', STANDBY_NAME],
    ]);
    execFileSync(backup, backupArgs, { stdio: 'pipe', timeout: 60_000 });
    // Later lines of postgresql.auto.conf win over the ones pg_basebackup -R wrote.
    const conninfo = [
      `host=${network.hostAddress}`,
      `port=${primary.port}`,
      'user=postgres',
      'connect_timeout=2',
      `application_name=${STANDBY_NAME}`,
    ].join(' ');
    await appendFile(
      join(dataDir, 'postgresql.auto.conf'),
      [
        `primary_conninfo = '${conninfo}'`,
        `primary_slot_name = '${STANDBY_NAME}'`,
        `wal_receiver_timeout = '3s'`,
        `wal_retrieve_retry_interval = '1s'`,
        '',
      ].join('\n'),
    );

    const port = await freePort();
    const [command, args] = postgresCommand(dataDir, port);
    const [wrapped, wrappedArgs] = network.wrap(command, [
      ...args,
      '-c',
      `listen_addresses=${network.namespaceAddress}`,
      '-c',
      `unix_socket_directories=${dir}`,
    ]);
    const standbyServer = spawnServer(wrapped, wrappedArgs);
    cleanups.push(async () => {
      standbyServer.signalTree('SIGCONT');
      standbyServer.signalTree('SIGKILL');
      await standbyServer.exited;
    });
    const standbyConfig: pg.ClientConfig = { host: dir, port, user: 'postgres', database: DATABASE_NAME };
    await waitUntil(
      async () => {
        if (!standbyServer.running()) throw new Error('exited');
        return withClient(standbyConfig, async (client) => {
          const receiving = await client.query<{ status: string }>('select status from pg_stat_wal_receiver');
          return receiving.rows[0]?.status === 'streaming';
        });
      },
      30_000,
      () => `the namespaced standby did not start streaming:\n${standbyServer.output()}`,
    );

    return { network, primaryUrl, standbyConfig, standbyName: STANDBY_NAME, destroy };
  } catch (error) {
    await destroy();
    throw error;
  }
}
