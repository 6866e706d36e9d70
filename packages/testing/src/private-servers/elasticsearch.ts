import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSearchClient, type SearchClient } from '@directory/search-index';
import { freePort } from '../processes.js';
import { spawnServer, waitUntil, type ServerProcess } from './server-process.js';

/**
 * Elasticsearch node(s) of a fault test's own: the development distribution, started one node at a
 * time by `infra/local/services.sh es-node` (the one way nodes are configured), on free HTTP and
 * transport ports, with data and logs in a temporary folder and a small heap. Two or three nodes form
 * one cluster, every node master-eligible (three survive the loss of the elected master). The test kills
 * (SIGKILL), pauses (SIGSTOP) and restarts nodes; the shared node is never touched.
 */
export type PrivateElasticsearchNode = {
  name: string;
  url: string;
  /** Starts the node (again) and waits until it answers HTTP. */
  start: () => Promise<void>;
  /** SIGKILL to the node's whole process tree. */
  kill: () => Promise<void>;
  /** SIGTERM, waiting for the node to exit. */
  stop: () => Promise<void>;
  pause: () => void;
  resume: () => void;
  running: () => boolean;
  output: () => string;
};

export type PrivateElasticsearch = {
  nodes: PrivateElasticsearchNode[];
  /** Every node's URL, for ELASTICSEARCH_URL (comma-joined) and for clients. */
  urls: string[];
  /** A client given every node (short timeouts are the caller's business). */
  client: SearchClient;
  /** Waits until the cluster has `nodes` nodes and at least `status`. */
  waitForHealth: (status: 'green' | 'yellow', nodes?: number, timeoutMs?: number) => Promise<void>;
  /** The name of the elected master node. */
  masterName: () => Promise<string>;
  destroy: () => Promise<void>;
};

const START_TIMEOUT_MS = 120_000;

export async function startPrivateElasticsearch(
  label: string,
  options: { nodes?: 1 | 2 | 3; heap?: string } = {},
): Promise<PrivateElasticsearch> {
  const count = options.nodes ?? 1;
  const dir = await mkdtemp(join(tmpdir(), `private-es-${label}-`));
  // The node runs as the unprivileged Elasticsearch user: it must be able to reach its folders.
  await chmod(dir, 0o755);
  const cluster = `private-${label}-${process.pid}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  const ports = await Promise.all(
    Array.from({ length: count }, async () => ({ http: await freePort(), transport: await freePort() })),
  );
  const names = ports.map((_, index) => `node-${index + 1}`);
  const seeds = ports.map((port) => `127.0.0.1:${port.transport}`).join(',');

  const nodes = await Promise.all(
    ports.map(async (port, index) => {
      const name = names[index] ?? `node-${index + 1}`;
      const nodeDir = join(dir, name);
      await mkdir(nodeDir);
      await chmod(nodeDir, 0o755);
      const args = [
        'infra/local/services.sh',
        'es-node',
        '--name',
        name,
        '--cluster',
        cluster,
        '--http-port',
        String(port.http),
        '--transport-port',
        String(port.transport),
        '--dir',
        nodeDir,
        '--heap',
        options.heap ?? '256m',
        ...(count > 1 ? ['--seed-hosts', seeds, '--initial-masters', names.join(',')] : []),
      ];
      return privateNode(name, `http://127.0.0.1:${port.http}`, args);
    }),
  );
  const urls = nodes.map((node) => node.url);
  const client = createSearchClient(urls, { timeoutMs: 10_000, maxRetries: 2 });

  const waitForHealth = async (
    status: 'green' | 'yellow',
    nodeCount: number = count,
    timeoutMs = START_TIMEOUT_MS,
  ) => {
    // Asked of a node that is up (the others may be down on purpose).
    await waitUntil(
      async () => {
        for (const node of nodes.filter((candidate) => candidate.running())) {
          const response = await fetch(
            `${node.url}/_cluster/health?wait_for_status=${status}&wait_for_nodes=${nodeCount}&timeout=2s`,
            { signal: AbortSignal.timeout(5_000) },
          ).catch(() => undefined);
          if (response?.status === 200) return true;
        }
        return false;
      },
      timeoutMs,
      () =>
        `private Elasticsearch cluster not ${status} with ${nodeCount} node(s):\n${nodes.map((node) => node.output().slice(-2_000)).join('\n')}`,
    );
  };

  try {
    await Promise.all(nodes.map((node) => node.start()));
    await waitForHealth('green');
  } catch (error) {
    await Promise.all(nodes.map((node) => node.kill()));
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    nodes,
    urls,
    client,
    waitForHealth,
    masterName: async () => {
      const response = await client.cat.master({ format: 'json' });
      const name = response[0]?.node;
      if (!name) throw new Error('the cluster has no elected master');
      return name;
    },
    destroy: async () => {
      await client.close();
      await Promise.all(nodes.map((node) => node.kill()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function privateNode(name: string, url: string, args: string[]): PrivateElasticsearchNode {
  let server: ServerProcess | undefined;
  const exitWithin = async (what: string) => {
    const current = server;
    if (!current) return;
    await Promise.race([
      current.exited,
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new Error(`private Elasticsearch ${name} did not exit after ${what}`)),
          60_000,
        ),
      ),
    ]);
  };
  return {
    name,
    url,
    running: () => server?.running() ?? false,
    output: () => server?.output() ?? '',
    start: async () => {
      const started = spawnServer('bash', args);
      server = started;
      await waitUntil(
        async () => {
          if (!started.running()) throw new Error('exited');
          // Any answer will do: the cluster may not have formed yet (health is waited for separately).
          await fetch(`${url}/_cluster/health?timeout=1s`, { signal: AbortSignal.timeout(3_000) });
          return true;
        },
        START_TIMEOUT_MS,
        () => `private Elasticsearch ${name} did not answer on ${url}:\n${started.output().slice(-4_000)}`,
      );
    },
    kill: async () => {
      server?.signalTree('SIGCONT');
      server?.signalTree('SIGKILL');
      await exitWithin('SIGKILL');
    },
    stop: async () => {
      server?.signalTree('SIGCONT');
      server?.signalTree('SIGTERM');
      await exitWithin('SIGTERM');
    },
    pause: () => server?.signalTree('SIGSTOP'),
    resume: () => server?.signalTree('SIGCONT'),
  };
}
