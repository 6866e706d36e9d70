import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, listEndpoints } from '@directory/webhooks';
import { hostileOrigins } from './support/hostile-urls.js';
import { createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// Hostile webhook endpoint URLs, as an account holder could type them in the console: every form of the
// security suite's list, over https and http, is refused at registration by the production policy (no
// loopback; real DNS answers), and none makes the service connect to the loopback listener they name.

const SECRET_KEY = 'security-webhook-secret-key-0123456789abcdef';

describe('hostile webhook endpoint URLs', () => {
  let harness: SecurityHarness;
  let listener: Server;
  let port: number;
  let accountId: string;
  const connections: Socket[] = [];

  beforeAll(async () => {
    harness = await createSecurityHarness('security-webhook-urls');
    listener = createServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    ({ accountId } = await harness.createKey('webhook-urls@example.com'));
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    await harness.close();
  });

  const register = (url: string, allowLoopback: boolean) =>
    createEndpoint(
      harness.database.db,
      { accountId, url, countries: ['de'] },
      { secretKey: SECRET_KEY, allowLoopback },
    );

  it('refuses every hostile form, over https and http, and connects nowhere', async () => {
    const table = [...hostileOrigins(port, 'https'), ...hostileOrigins(port, 'http')].map(
      ([name, origin]): [string, string] => [name, `${origin}/hooks`],
    );
    const accepted: string[] = [];
    for (const [name, url] of table) {
      const result = await register(url, false);
      if (result.ok) accepted.push(`${name}: ${url}`);
      else expect(result.error, name).toMatch(/\w/);
    }
    expect(accepted).toEqual([]);
    expect(await listEndpoints(harness.database.db, accountId)).toEqual([]);
    expect(connections).toHaveLength(0);
  });

  it('accepts the loopback listener only when the setting tests use allows it (the control)', async () => {
    const url = `http://127.0.0.1:${port}/hooks`;
    expect((await register(url, false)).ok).toBe(false);
    const allowed = await register(url, true);
    expect(allowed.ok).toBe(true);
    expect((await listEndpoints(harness.database.db, accountId)).map((endpoint) => endpoint.url)).toEqual([
      url,
    ]);
  });
});
