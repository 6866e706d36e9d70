import { describe, expect, it } from 'vitest';
import {
  ADDRESS_REFUSED,
  checkEndpointUrl,
  chooseAddress,
  isAllowedPort,
  parseEndpointUrl,
  portRefusal,
  type AddressPolicy,
} from '../src/address-policy.js';
import {
  CERTIFICATE_REFUSED,
  COULD_NOT_CONNECT,
  connectionError,
  timeoutError,
} from '../src/attempt-errors.js';
import { addressesFromAnswers, dnsBudgetMs } from '../src/host-resolution.js';

// The pure parts of the address checks (ports, one refusal message, DNS answers, the delivery log's
// words), and the DNS budget with a resolver that never answers: no server is involved.

const ZONE: Record<string, string[]> = {
  'public.example.test': ['93.184.216.34'],
  'inside.example.test': ['10.0.0.1'],
  'self.example.test': ['127.0.0.1'],
};

/** A resolver that records what it was asked; names under `silent.` never get an answer. */
function recordingResolver() {
  const asked: string[] = [];
  const resolve = (host: string): Promise<string[]> => {
    asked.push(host);
    if (host.startsWith('silent.')) return new Promise<string[]>(() => {});
    if (host.startsWith('servfail.'))
      return Promise.reject(Object.assign(new Error('x'), { code: 'ESERVFAIL' }));
    return Promise.resolve(ZONE[host] ?? []);
  };
  return { asked, resolve };
}

const codeError = (code: string) => Object.assign(new Error(code), { code });

describe('ports', () => {
  const production: AddressPolicy = { allowLoopback: false };
  const tests: AddressPolicy = { allowLoopback: true, allowedPorts: [443] };

  it('allows only the configured ports, and any port of loopback only when loopback is allowed', () => {
    expect(isAllowedPort(443, '93.184.216.34', production)).toBe(true);
    expect(isAllowedPort(22, '93.184.216.34', production)).toBe(false);
    expect(isAllowedPort(8443, '93.184.216.34', { ...production, allowedPorts: [443, 8443] })).toBe(true);
    expect(isAllowedPort(6379, '127.0.0.1', production)).toBe(false);
    expect(isAllowedPort(6379, '127.0.0.1', tests)).toBe(true);
    expect(isAllowedPort(6379, '::1', tests)).toBe(true);
    expect(isAllowedPort(6379, '93.184.216.34', tests)).toBe(false);
  });

  it('refuses a port before any DNS query when loopback is not allowed', async () => {
    const { asked, resolve } = recordingResolver();
    for (const port of [22, 25, 80, 3306, 6379, 8080, 9200]) {
      const result = await checkEndpointUrl(`https://public.example.test:${port}/`, {
        allowLoopback: false,
        resolve,
      });
      expect(result).toEqual({ ok: false, error: 'the port of the URL must be 443' });
    }
    expect(asked).toEqual([]);
  });

  it('checks the port with the address when a name may resolve to loopback (tests)', async () => {
    const { resolve } = recordingResolver();
    const policy: AddressPolicy = { ...tests, resolve };
    expect((await checkEndpointUrl('https://self.example.test:6379/', policy)).ok).toBe(true);
    expect(await checkEndpointUrl('https://public.example.test:6379/', policy)).toEqual({
      ok: false,
      error: 'the port of the URL must be 443',
    });
    expect((await checkEndpointUrl('http://localhost:6379/', policy)).ok).toBe(true);
    expect(parseEndpointUrl('https://8.8.8.8:22/', tests)).toEqual({
      ok: false,
      error: 'the port of the URL must be 443',
    });
  });

  it('says which ports are allowed', () => {
    expect(portRefusal([443])).toBe('the port of the URL must be 443');
    expect(portRefusal([443, 8443])).toBe('the port of the URL must be one of 443, 8443');
  });
});

describe('one refusal for every address reason', () => {
  it('answers the same whatever the reason, and gives the reason to the log only', async () => {
    const { resolve } = recordingResolver();
    const logged: Array<{ host: string; reason: string }> = [];
    const policy: AddressPolicy = {
      allowLoopback: false,
      resolve,
      dns: { servers: [], timeoutMs: 20, tries: 2 },
      onRefused: (refusal) => logged.push(refusal),
    };
    const urls = [
      'https://inside.example.test/', // private
      'https://self.example.test/', // loopback
      'https://nowhere.example.test/', // no such name
      'https://servfail.example.test/', // the resolver failed
      'https://silent.example.test/', // no answer in time
    ];
    const errors = await Promise.all(
      urls.map(async (url) => {
        const result = await checkEndpointUrl(url, policy);
        return result.ok ? 'accepted' : result.error;
      }),
    );
    expect(errors).toEqual(urls.map(() => ADDRESS_REFUSED));
    expect(logged.map((entry) => entry.host)).toEqual(urls.map((url) => new URL(url).hostname));
    expect(logged.map((entry) => entry.reason)).toEqual([
      'resolves to 10.0.0.1, not a public address',
      'resolves to 127.0.0.1, not a public address',
      'no such name',
      'DNS ESERVFAIL',
      'no DNS answer within 40 ms',
    ]);
  });

  it('gives a resolver that never answers no more than timeout × tries', async () => {
    const { resolve } = recordingResolver();
    const dns = { servers: [], timeoutMs: 40, tries: 2 };
    expect(dnsBudgetMs(dns)).toBe(80);
    const started = performance.now();
    const result = await checkEndpointUrl('https://silent.example.test/', {
      allowLoopback: false,
      resolve,
      dns,
    });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ ok: false, error: ADDRESS_REFUSED });
    expect(elapsed).toBeGreaterThanOrEqual(75);
    expect(elapsed).toBeLessThan(1_000);
  });

  it('connects to the first address only when every address is public', () => {
    const policy: AddressPolicy = { allowLoopback: false };
    expect(chooseAddress(['93.184.216.34', '2606:2800:220:1::1'], 443, policy)).toEqual({
      ok: true,
      value: { address: '93.184.216.34', family: 4 },
    });
    expect(chooseAddress(['93.184.216.34', '10.0.0.1'], 443, policy)).toEqual({
      ok: false,
      error: { message: ADDRESS_REFUSED, reason: 'resolves to 10.0.0.1, not a public address' },
    });
    expect(chooseAddress([], 443, policy)).toEqual({
      ok: false,
      error: { message: ADDRESS_REFUSED, reason: 'no addresses' },
    });
  });
});

describe('DNS answers', () => {
  const fulfilled = (value: string[]): PromiseSettledResult<string[]> => ({ status: 'fulfilled', value });
  const rejected = (code: string): PromiseSettledResult<string[]> => ({
    status: 'rejected',
    reason: codeError(code),
  });

  it('joins the A and AAAA answers; a family without records is no failure', () => {
    expect(addressesFromAnswers([fulfilled(['93.184.216.34']), fulfilled(['2606:2800:220:1::1'])])).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
    expect(addressesFromAnswers([fulfilled(['93.184.216.34']), rejected('ENODATA')])).toEqual({
      ok: true,
      addresses: ['93.184.216.34'],
    });
    expect(addressesFromAnswers([rejected('ENOTFOUND'), rejected('ENOTFOUND')])).toEqual({
      ok: false,
      reason: 'no such name',
    });
  });

  it('refuses when one query failed otherwise: the name may have addresses nobody checked', () => {
    expect(addressesFromAnswers([fulfilled(['93.184.216.34']), rejected('ETIMEOUT')])).toEqual({
      ok: false,
      reason: 'DNS ETIMEOUT',
    });
    expect(addressesFromAnswers([rejected('ESERVFAIL'), fulfilled([])])).toEqual({
      ok: false,
      reason: 'DNS ESERVFAIL',
    });
  });
});

describe("the delivery log's words for an attempt without a status", () => {
  it('reads the same for every connection failure, so a port cannot be fingerprinted', () => {
    const codes = [
      'ECONNREFUSED',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ECONNRESET',
      'EPIPE',
      'EPROTO',
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'EADDRNOTAVAIL',
      'ETIMEDOUT',
      'HPE_INVALID_CONSTANT',
    ];
    expect(new Set(codes.map((code) => connectionError(codeError(code))))).toEqual(
      new Set([COULD_NOT_CONNECT]),
    );
    expect(connectionError(new Error('socket hang up'))).toBe(COULD_NOT_CONNECT);
    expect(connectionError(null)).toBe(COULD_NOT_CONNECT);
  });

  it('keeps a refused certificate and the timeout', () => {
    for (const code of ['CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
      expect(connectionError(codeError(code))).toBe(CERTIFICATE_REFUSED);
    }
    expect(timeoutError(10_000)).toBe('timed out after 10000 ms');
  });
});
