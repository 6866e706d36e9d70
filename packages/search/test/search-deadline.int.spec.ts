import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@directory/config';
import { createSearchClient, ensureDoctorsIndex } from '@directory/search-index';
import { createTestSearch, freePort } from '@directory/testing';
import { SearchUnavailableError, createDirectory } from '../src/index.js';

const SITE = 'https://www.doctor-directory.example';
const SECRET = 'directory-test-secret-0123456789abcdef';
const ATTEMPT_TIMEOUT_MS = 400;
const DEADLINE_MS = 500;

/** A node that accepts connections and never answers: how a paused or partitioned node looks to a client. */
async function startHungNode(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function elapsedMs(work: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  let error: unknown;
  try {
    await work();
  } catch (caught) {
    error = caught;
  }
  return { ms: performance.now() - started, error };
}

// Over several nodes the client retries a timed-out attempt on the next node; the deadline bounds a
// search whole, so a cluster that hangs altogether is a 503 after the deadline, not one timeout per node.
describe('search deadline over several nodes', () => {
  const search = createTestSearch('search-deadline');
  const alias = `${search.prefix}_doctors`;
  const hungNodes: Array<Awaited<ReturnType<typeof startHungNode>>> = [];
  afterAll(async () => {
    await Promise.all(hungNodes.map((node) => node.close()));
    await search.cleanup();
  });

  function directoryOver(urls: string[], searchDeadlineMs?: number) {
    const client = createSearchClient(urls, { timeoutMs: ATTEMPT_TIMEOUT_MS, maxRetries: 1 });
    const directory = createDirectory({
      client,
      alias,
      siteOrigin: SITE,
      cursorSecret: SECRET,
      ...(searchDeadlineMs === undefined ? {} : { searchDeadlineMs }),
    });
    return { directory, close: () => client.close() };
  }

  it('gives up at the deadline when every node hangs, where the attempts alone would take one timeout per node and one more', async () => {
    hungNodes.push(await startHungNode(), await startHungNode());
    const urls = hungNodes.map((node) => node.url);
    const page = { country: 'de' as const, limit: 10 };

    const bounded = directoryOver(urls, DEADLINE_MS);
    const withDeadline = await elapsedMs(() => bounded.directory.searchDoctors(page, new Date()));
    await bounded.close();
    expect(withDeadline.error).toBeInstanceOf(SearchUnavailableError);
    expect(withDeadline.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    // Well short of the attempts' 1,200 ms, with room for a busy machine's late timers.
    expect(withDeadline.ms).toBeLessThan(DEADLINE_MS + 500);

    const unbounded = directoryOver(urls);
    const attemptsOnly = await elapsedMs(() => unbounded.directory.searchDoctors(page, new Date()));
    await unbounded.close();
    expect(attemptsOnly.error).toBeInstanceOf(SearchUnavailableError);
    // Two nodes: three attempts of ATTEMPT_TIMEOUT_MS each.
    expect(attemptsOnly.ms).toBeGreaterThanOrEqual(3 * ATTEMPT_TIMEOUT_MS - 10);
  });

  it('answers from the live node when the other hangs, within the deadline', async () => {
    await ensureDoctorsIndex(search.client, alias);
    const hung = await startHungNode();
    hungNodes.push(hung);
    const { directory, close } = directoryOver([hung.url, ...loadConfig().ELASTICSEARCH_URL], 2_000);
    // Every request meets the hung node at most once, then the live one answers.
    for (let round = 0; round < 4; round++) {
      expect(await directory.searchDoctors({ country: 'de', limit: 10 }, new Date())).toMatchObject({
        page: { count: 0 },
      });
    }
    await close();
  });
});
