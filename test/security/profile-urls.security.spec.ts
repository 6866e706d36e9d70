import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileOrigins } from './support/hostile-urls.js';
import { createSecurityHarness, type SecurityHarness } from './support/security-harness.js';

// Hostile profile URLs as doctorId: every one is a 400, and none makes the service connect anywhere.
// The site origin is a loopback listener of this test, so a fetch of anything that slipped through
// the parser would land on it; it must see no connection.

describe('hostile profile URLs', () => {
  let harness: SecurityHarness;
  let listener: Server;
  let port: number;
  let app: FastifyInstance;
  let secret: string;
  const connections: Socket[] = [];

  beforeAll(async () => {
    harness = await createSecurityHarness('security-profile-urls');
    listener = createServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    app = await harness.api({ siteOrigin: `http://localhost:${port}` });
    ({ secret } = await harness.createKey('urls@example.com'));
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    await harness.close();
  });

  const getDoctor = (doctorId: string) =>
    app.inject({ url: `/api/v1/doctors/${encodeURIComponent(doctorId)}`, headers: { 'x-api-key': secret } });

  it('the listener sees a connection when something does connect (control)', async () => {
    await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
    expect(connections.length).toBeGreaterThan(0);
    connections.length = 0;
  });

  it('accepts the canonical form (not found, not invalid), the control for the table', async () => {
    const response = await getDoctor(`http://localhost:${port}/de/aerzte/de/berlin/dr-nobody`);
    expect(response.statusCode).toBe(404);
  });

  it('answers every hostile URL with 400 problem+json and connects nowhere', async () => {
    const origin = `http://localhost:${port}`;
    const path = '/de/aerzte/de/berlin/dr-nobody';
    const table: Array<[string, string]> = [
      ...hostileOrigins(port).map(([name, hostile]): [string, string] => [name, `${hostile}${path}`]),
      ['other port', `http://localhost:${port + 1}${path}`],
      ['default port', `http://localhost${path}`],
      ['other scheme', `https://localhost:${port}${path}`],
      ['ftp', `ftp://localhost:${port}${path}`],
      ['javascript', 'javascript:fetch(1)'],
      ['scheme-relative', `//localhost:${port}${path}`],
      ['dot-dot segments', `${origin}/de/aerzte/de/berlin/../../../x/dr-nobody`],
      ['dot segment', `${origin}/de/aerzte/./de/berlin/dr-nobody`],
      ['encoded dot segments', `${origin}/de/aerzte/de/%2e%2e/berlin/dr-nobody`],
      ['backslash path', `${origin}\\de\\aerzte\\de\\berlin\\dr-nobody`],
      ['backslash authority', `http:\\\\localhost:${port}${path}`],
      ['percent-encoded character', `${origin}/de/aerzte/de/berlin/dr%2Dnobody`],
      ['encoded slash', `${origin}/de/aerzte/de/berlin%2Fdr-nobody`],
      ['double-encoded slash', `${origin}/de/aerzte/de/berlin%252Fdr-nobody`],
      ['encoded NUL', `${origin}${path}%00`],
      ['query', `${origin}${path}?redirect=http://evil.example`],
      ['empty query', `${origin}${path}?`],
      ['fragment', `${origin}${path}#top`],
      ['empty segment', `${origin}/de//aerzte/de/berlin/dr-nobody`],
      ['trailing slash', `${origin}${path}/`],
      ['whitespace', `${origin}${path} `],
      ['overlong', `${origin}/de/aerzte/de/berlin/${'a'.repeat(2100)}`],
    ];
    const failures: string[] = [];
    for (const [name, url] of table) {
      const response = await getDoctor(url);
      const isProblem = String(response.headers['content-type']).startsWith('application/problem+json');
      if (response.statusCode !== 400 || !isProblem) failures.push(`${name}: ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect(connections).toHaveLength(0);
  });
});
