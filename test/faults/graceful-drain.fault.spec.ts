import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDoctorsIndex } from '@directory/search-index';
import {
  createTestDatabase,
  createTestRedis,
  createTestSearch,
  freePort,
  type TestDatabase,
  type TestSearch,
} from '@directory/testing';
import {
  createLoadKey,
  faultEnvironment,
  lastOutput,
  searchRequest,
  sleep,
  startService,
  type RunningService,
} from './service-processes.fixture.js';

// Short, so the scenario stays within seconds; long enough for a balancer polling every 100 ms to notice.
const DRAIN_MS = 1_500;
const READINESS_POLL_MS = 100;
// From the end of the drain to the exit: the close of an idle API (no dependency hangs here).
const CLOSE_BOUND_MS = 3_000;

/** Whether a TCP connection to the port is accepted now (false: refused, the listener is closed). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A load balancer in front of one API process: it polls the operator port's /readyz and, from the
 * first failing answer on, sends no new request there; in-flight requests run to their end.
 */
function startBalancedLoad(options: {
  readyz: string;
  request: () => Promise<Response>;
  concurrency: number;
}) {
  const times = { notReadyAt: Number.NaN };
  const failures: string[] = [];
  const startedAt: number[] = [];
  let inRotation = true;
  let polling = true;
  const waitingForReadyPoll: Array<() => void> = [];

  const poller = (async () => {
    while (polling) {
      try {
        const response = await fetch(options.readyz, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        if (response.status === 200) for (const resolve of waitingForReadyPoll.splice(0)) resolve();
        else if (inRotation) {
          inRotation = false;
          times.notReadyAt = performance.now();
        }
      } catch {
        // A refused probe is a failing one too (the operator listener closes last).
        if (inRotation) {
          inRotation = false;
          times.notReadyAt = performance.now();
        }
      }
      await sleep(READINESS_POLL_MS);
    }
  })();

  const sender = async () => {
    while (inRotation) {
      startedAt.push(performance.now());
      try {
        const response = await options.request();
        const body = await response.text();
        if (response.status !== 200) failures.push(`${response.status} ${body.slice(0, 200)}`);
      } catch (error) {
        const cause =
          error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
        failures.push(`request failed${cause || `: ${String(error)}`}`);
      }
    }
  };
  const senders = Array.from({ length: options.concurrency }, sender);

  return {
    times,
    failures,
    startedAt,
    /** Resolves just after a poll found the process ready: the next poll is a full interval away. */
    readyPolled: () => new Promise<void>((resolve) => waitingForReadyPoll.push(resolve)),
    /** Resolves once the balancer took the process out of rotation and its last requests ended. */
    drained: async () => {
      await Promise.all(senders);
    },
    stop: async () => {
      inRotation = false;
      polling = false;
      await Promise.all([poller, ...senders]);
    },
  };
}

describe('fault: SIGTERM under load behind a load balancer that polls /readyz', () => {
  let database: TestDatabase;
  let search: TestSearch;
  const redis = createTestRedis('graceful-drain');
  const services: RunningService[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('graceful-drain');
    search = createTestSearch('graceful-drain');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(services.map((service) => service.process.stop('SIGKILL')));
    await redis.cleanup();
    await search?.cleanup();
    await database?.drop();
  }, 30_000);

  it('fails /readyz at once and answers every request sent before the balancer notices, then exits 0', async (context) => {
    context.onTestFailed(() => console.error(lastOutput(services)));
    const alias = `${search.prefix}_doctors`;
    await ensureDoctorsIndex(search.client, alias);
    const opsPort = await freePort();
    const api = await startService(
      'api',
      faultEnvironment({
        DATABASE_URL: database.url,
        REDIS_PREFIX: redis.prefix,
        ELASTICSEARCH_INDEX: alias,
        API_OPS_PORT: String(opsPort),
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      }),
    );
    services.push(api);
    const apiPort = Number(new URL(api.base).port);
    const secret = await createLoadKey(database.db);

    const balancer = startBalancedLoad({
      readyz: `http://127.0.0.1:${opsPort}/readyz`,
      request: searchRequest(api.base, secret),
      concurrency: 4,
    });
    try {
      await sleep(1_000);
      expect(balancer.failures, 'failures before SIGTERM').toEqual([]);

      // Right after a poll, so the balancer keeps sending for about an interval after the signal.
      await balancer.readyPolled();
      const signalledAt = performance.now();
      const exited = api.process.stop('SIGTERM').then((code) => ({ code, at: performance.now() }));
      await balancer.drained();
      const notReadyAt = balancer.times.notReadyAt;
      // The balancer's next poll saw it: readiness failed at once, not at the end of the drain.
      expect(notReadyAt - signalledAt).toBeLessThan(READINESS_POLL_MS + 400);

      // The public listener keeps accepting through the drain, and closes once it is over.
      let publicClosedAt = Number.NaN;
      while (Number.isNaN(publicClosedAt)) {
        if (!(await accepts(apiPort))) publicClosedAt = performance.now();
        else await sleep(50);
      }
      expect(publicClosedAt).toBeGreaterThan(notReadyAt);
      expect(publicClosedAt - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS);

      const exit = await exited;
      const sentAfterSignal = balancer.startedAt.filter((at) => at >= signalledAt).length;
      console.info(
        `graceful drain: ${balancer.startedAt.length} requests, ${sentAfterSignal} sent after SIGTERM; /readyz failed ` +
          `${Math.round(notReadyAt - signalledAt)} ms after it, the listener closed after ` +
          `${Math.round(publicClosedAt - signalledAt)} ms, exit ${exit.code} after ${Math.round(exit.at - signalledAt)} ms`,
      );
      // Requests were sent between SIGTERM and the balancer noticing, and every one was answered 200.
      expect(sentAfterSignal).toBeGreaterThan(0);
      expect(balancer.failures).toEqual([]);
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(DRAIN_MS + CLOSE_BOUND_MS);

      const output = api.process.output();
      const draining = output.indexOf('"msg":"draining"');
      const closing = output.indexOf('"msg":"closing"');
      expect(draining).toBeGreaterThanOrEqual(0);
      expect(closing).toBeGreaterThan(draining);
      expect(output).not.toContain(secret);
    } finally {
      await balancer.stop();
    }
  }, 60_000);
});
