import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// An If-None-Match value built to make a backtracking parser stall: a list element that fails to parse
// after 60,000 spaces (within the API's 64 KiB request head). The parser it replaced spent over four
// seconds of the one event loop on each such request, and every other client waited. Now the header
// is ignored (over 8 KiB, and malformed) in one pass: the request is answered like any other, at once,
// and a second client's requests are not held up while one key sends it again and again.

const HOSTILE_IF_NONE_MATCH = `"a",${' '.repeat(60_000)}x`;
const HOSTILE_CONNECTIONS = 4;
const HOSTILE_REQUESTS = 100;
// Generous for requests that take milliseconds, on a loaded two-core machine; far below the seconds
// a single hostile request cost before.
const BOUND_MS = 1_500;
// A client gives up on an answer this late: with the old parser the test fails in seconds instead of
// queueing minutes of backtracking behind the server's event loop.
const CLIENT_TIMEOUT_MS = 3_000;

type Answer = { status: number; milliseconds: number };

function get(agent: Agent, url: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers, timeout: CLIENT_TIMEOUT_MS }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, milliseconds: performance.now() - started }),
      );
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in ${CLIENT_TIMEOUT_MS} ms`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('a hostile If-None-Match header', () => {
  let harness: SecurityHarness;
  let keyUrl: string;
  let attacker: string;
  let bystander: string;
  const hostileAgent = new Agent({ keepAlive: true, maxSockets: HOSTILE_CONNECTIONS });
  const bystanderAgent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    harness = await createSecurityHarness('security-hostile-header');
    keyUrl = `${await harness.listen(await harness.api())}/api/v1/key`;
    ({ secret: attacker } = await harness.createKey('attacker@example.com'));
    ({ secret: bystander } = await harness.createKey('bystander@example.com'));
  });
  afterAll(async () => {
    hostileAgent.destroy();
    bystanderAgent.destroy();
    await harness.close();
  });

  it('is answered at once as unconditional, and another client is not held up meanwhile', async () => {
    const hostileHeaders = { 'x-api-key': attacker, 'if-none-match': HOSTILE_IF_NONE_MATCH };
    // Warm-up: connections, key lookups, JIT.
    for (let index = 0; index < 5; index += 1) {
      expect((await get(bystanderAgent, keyUrl, { 'x-api-key': bystander })).status).toBe(200);
    }

    let sent = 0;
    let hostileDone = false;
    const hostileTimes: number[] = [];
    const hostileConnection = async () => {
      while (sent < HOSTILE_REQUESTS) {
        sent += 1;
        const answer = await get(hostileAgent, keyUrl, hostileHeaders);
        expect(answer.status).toBe(200);
        hostileTimes.push(answer.milliseconds);
      }
    };
    const hostile = Promise.all(Array.from({ length: HOSTILE_CONNECTIONS }, hostileConnection)).finally(
      () => (hostileDone = true),
    );
    // Awaited below; if the bystander fails first, that is the failure to report.
    hostile.catch(() => undefined);

    const bystanderTimes: number[] = [];
    while (!hostileDone || bystanderTimes.length < 20) {
      const answer = await get(bystanderAgent, keyUrl, { 'x-api-key': bystander });
      expect(answer.status).toBe(200);
      bystanderTimes.push(answer.milliseconds);
    }
    await hostile;

    const slowest = (times: number[]) => Math.max(...times);
    console.info(
      `hostile If-None-Match: ${hostileTimes.length} requests, slowest ${slowest(hostileTimes).toFixed(1)} ms; ` +
        `bystander ${bystanderTimes.length} requests, slowest ${slowest(bystanderTimes).toFixed(1)} ms`,
    );
    expect(hostileTimes).toHaveLength(HOSTILE_REQUESTS);
    expect(slowest(hostileTimes)).toBeLessThan(BOUND_MS);
    expect(slowest(bystanderTimes)).toBeLessThan(BOUND_MS);
  });
});
