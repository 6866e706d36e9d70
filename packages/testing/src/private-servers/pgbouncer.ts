import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../processes.js';
import { asUser, spawnServer, userIds, waitUntil, type ServerProcess } from './server-process.js';

/**
 * PgBouncer of a test's own in transaction mode (the mode that refuses start-up parameters and hands a
 * server connection to another client after every transaction), on a free loopback port in front of a
 * private cluster. Debian's `pgbouncer` package, which `infra/local/services.sh up` installs when
 * missing; its system service, if any, is never used. `retarget` points it at another server (a promoted
 * standby) without a restart.
 */
export type PrivatePgBouncer = {
  port: number;
  /** The project's database through the pooler. */
  url: string;
  retarget: (serverPort: number) => Promise<void>;
  destroy: () => Promise<void>;
};

const BINARY_CANDIDATES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
const DATABASE_NAME = 'directory';

export function pgBouncerBinary(): string {
  const found = BINARY_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found)
    throw new Error(
      'pgbouncer is not installed: `npm run services:up` (which the test run calls) installs it, or `sudo apt-get install -y pgbouncer`',
    );
  return found;
}

function iniFile(dir: string, port: number, serverPort: number): string {
  return [
    '[databases]',
    `${DATABASE_NAME} = host=127.0.0.1 port=${serverPort} dbname=${DATABASE_NAME} user=postgres`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    'admin_users = postgres',
    'pool_mode = transaction',
    'max_client_conn = 500',
    'default_pool_size = 40',
    // No ignore_startup_parameters: a client that sent one would be refused, which is the point.
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    '',
  ].join('\n');
}

export async function startPgBouncer(serverPort: number, label: string): Promise<PrivatePgBouncer> {
  const binary = pgBouncerBinary();
  const dir = await mkdtemp(join(tmpdir(), `pgbouncer-${label}-`));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  const writeIni = async (target: number) => {
    await writeFile(ini, iniFile(dir, port, target));
    if (process.getuid?.() === 0) {
      const { uid, gid } = userIds('postgres');
      await chown(ini, uid, gid);
    }
  };
  await writeFile(join(dir, 'userlist.txt'), '"postgres" ""\n');
  if (process.getuid?.() === 0) {
    const { uid, gid } = userIds('postgres');
    await chown(dir, uid, gid);
    await chown(join(dir, 'userlist.txt'), uid, gid);
  }
  await writeIni(serverPort);
  // PgBouncer refuses to run as root.
  const [command, args] = asUser('postgres', binary, [ini]);
  const server: ServerProcess = spawnServer(command, args);
  const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE_NAME}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer`,
      connectionTimeoutMillis: 2_000,
    });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await waitUntil(
    async () => {
      if (!server.running()) throw new Error('exited');
      await admin('SHOW VERSION');
      return true;
    },
    15_000,
    () => `pgbouncer on port ${port} did not start:\n${server.output()}`,
  );
  return {
    port,
    url,
    retarget: async (target) => {
      await writeIni(target);
      await admin('RELOAD');
      // Server connections to the old target are closed as they are released.
      await admin('RECONNECT');
    },
    destroy: async () => {
      server.signalTree('SIGKILL');
      await server.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
