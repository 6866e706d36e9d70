import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '@directory/domain';
import { startDroppingDnsServer, type DroppingDnsServer } from '@directory/testing';
import { ADDRESS_REFUSED, type AddressPolicy } from '../src/address-policy.js';
import { attemptSigned, type AttemptResult } from '../src/delivery.js';

// A delivery attempt (what the worker's send() runs) against a name server that never answers: the
// attempt ends within WEBHOOK_TIMEOUT_MS, DNS included, while attempts to another endpoint go on; and
// an attempt ends on the receiver's status line, whatever its body does. Real sockets on loopback only.

const ATTEMPT_TIMEOUT_MS = 1_200;
// DNS alone would allow 2 × 1000 ms: the attempt's deadline must cut it first.
const DNS = { timeoutMs: 1_000, tries: 2 };

describe('delivery attempts and a name server that never answers', () => {
  let dns: DroppingDnsServer;
  let receiver: Server;
  let receiverUrl: string;
  const unfinished = new Set<ServerResponse>();

  beforeAll(async () => {
    dns = await startDroppingDnsServer();
    // Answers 200 at once, then a body that never ends.
    receiver = createServer((request, response) => {
      request.resume();
      unfinished.add(response);
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('still writing');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    for (const response of unfinished) response.destroy();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await dns.close();
  });

  const attempt = (url: string): Promise<AttemptResult & { elapsedMs: number }> => {
    const policy: AddressPolicy = { allowLoopback: true, dns: { servers: [dns.address], ...DNS } };
    const started = performance.now();
    return attemptSigned({
      url,
      policy,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      body: '{"type":"webhook.test"}',
      signatureHeaders: () => ok({ 'webhook-id': 'msg_dns_spec' }),
    }).then((result) => ({ ...result, elapsedMs: performance.now() - started }));
  };

  it('ends an attempt to a silent name within its deadline while another endpoint is delivered', async () => {
    const slow = attempt('https://hooks.silent.example.test/hook');
    // The resolver under test asked the silent server (A and AAAA).
    const deadline = Date.now() + 1_000;
    while (dns.asked().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(dns.asked()).toEqual(['hooks.silent.example.test', 'hooks.silent.example.test']);

    // Meanwhile, three attempts to the other endpoint, one after the other, each ending on its status.
    const others: Array<AttemptResult & { elapsedMs: number }> = [];
    for (let index = 0; index < 3; index += 1) others.push(await attempt(receiverUrl));
    const slowResult = await slow;

    for (const other of others) {
      expect(other).toMatchObject({ statusCode: 200, error: null });
      expect(other.elapsedMs).toBeLessThan(ATTEMPT_TIMEOUT_MS / 2);
    }
    expect(slowResult).toMatchObject({
      statusCode: null,
      error: `refused: ${ADDRESS_REFUSED}`,
      latencyMs: 0,
    });
    // Cut by the attempt's deadline (1.2 s), not by DNS's own 2 s.
    expect(slowResult.elapsedMs).toBeGreaterThanOrEqual(ATTEMPT_TIMEOUT_MS - 50);
    expect(slowResult.elapsedMs).toBeLessThan(ATTEMPT_TIMEOUT_MS + 600);
    // A literal address asks no DNS: every question was the silent name's (how many depends on whether
    // the resolver's second try, due at 1 s, went out before the 1.2 s deadline stopped it).
    expect(new Set(dns.asked())).toEqual(new Set(['hooks.silent.example.test']));
  });
});
