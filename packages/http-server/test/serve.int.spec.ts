import { freePort, startProcess, type RunningProcess } from '@directory/testing';
import { afterEach, describe, expect, it } from 'vitest';

// The drain as a process lives it (docs/operations.md, "Shutdown and draining"): a real SIGTERM to a
// server built on serveUntilSignal and the operator listener (test/fixtures/drain-server.ts).
const FIXTURE = 'packages/http-server/test/fixtures/drain-server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const started: RunningProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop('SIGKILL')));
});

async function startDrainServer(
  drainMs: number,
): Promise<{ server: RunningProcess; app: string; ops: string }> {
  const [appPort, opsPort] = [await freePort(), await freePort()];
  const server = startProcess(FIXTURE, [], {
    PORT: String(appPort),
    OPS_PORT: String(opsPort),
    DRAIN_MS: String(drainMs),
  });
  started.push(server);
  await server.waitForOutput(/Server listening/, 30_000);
  return { server, app: `http://127.0.0.1:${appPort}`, ops: `http://127.0.0.1:${opsPort}` };
}

/** Milliseconds until `check` holds, polling every 10 ms (throws past `timeoutMs`). */
async function msUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(10);
  }
  return performance.now() - started;
}

describe('serveUntilSignal drains before it closes', () => {
  it('fails /readyz at once, answers for the drain, finishes in-flight requests, then exits 0', async () => {
    const drainMs = 1_500;
    const { server, app, ops } = await startDrainServer(drainMs);
    expect((await fetch(`${ops}/readyz`)).status).toBe(200);

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exited = server.exited.then((code) => ({ code, ms: performance.now() - signalled }));

    const flippedMs = await msUntil(async () => (await fetch(`${ops}/readyz`)).status === 503, 1_000);
    expect(flippedMs).toBeLessThan(250);
    const readyz = await fetch(`${ops}/readyz`);
    expect(readyz.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await readyz.json()).toEqual({
      type: '/problems/not-ready',
      title: 'Not ready',
      status: 503,
      detail: 'not ready: shutdown (draining)',
      dependencies: [{ name: 'shutdown', ready: false, reason: 'draining' }],
    });

    // Still answering while the balancer notices: every request during the drain is served.
    const answered: number[] = [];
    while (performance.now() - signalled < drainMs - 500) {
      answered.push((await fetch(`${app}/ok`)).status);
      await sleep(50);
    }
    expect(answered.length).toBeGreaterThanOrEqual(5);
    expect(new Set(answered)).toEqual(new Set([200]));

    // Sent before the drain ends, answered after the close began: in-flight requests finish.
    const answer = await fetch(`${app}/slow?ms=1000`);
    expect([answer.status, await answer.text()]).toEqual([200, 'slow ok']);

    const exit = await exited;
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeGreaterThanOrEqual(drainMs);
    expect(exit.ms).toBeLessThan(drainMs + 3_000);
    const output = server.output();
    const draining = output.indexOf('"msg":"draining"');
    const closing = output.indexOf('"msg":"closing"');
    expect(draining).toBeGreaterThanOrEqual(0);
    expect(closing).toBeGreaterThan(draining);
    // The in-flight request ended after "closing": the close waited for it.
    expect(output.indexOf('"url":"/slow?ms=1000"')).toBeLessThan(closing);
    expect(output.lastIndexOf('"statusCode":200')).toBeGreaterThan(closing);
  });

  it('ends the drain early on a second signal', async () => {
    const { server } = await startDrainServer(30_000);
    server.child.kill('SIGTERM');
    await server.waitForOutput(/"msg":"draining"/, 5_000);
    const second = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(performance.now() - second).toBeLessThan(3_000);
    expect(server.output()).toMatch(/ending the drain early/);
  });

  it('closes at once without a drain (SHUTDOWN_DRAIN_MS=0)', async () => {
    const { server } = await startDrainServer(0);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(1_500);
    expect(server.output()).not.toMatch(/"msg":"draining"/);
    expect(server.output()).toMatch(/"msg":"closing"/);
  });
});
