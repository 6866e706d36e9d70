import { describe, expect, it } from 'vitest';
import {
  ADDRESS_REFUSED,
  checkEndpointUrl,
  isPublicAddress,
  parseEndpointUrl,
} from '../src/address-policy.js';

// What names resolve to in this spec: no DNS server is asked.
const ZONE: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'inside.example.com': ['10.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
  'loopback.example.com': ['127.0.0.1'],
  'localhost.evil.example': ['127.0.0.1'],
  'evil-localhost': ['192.168.1.10'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'garbage.example.com': ['not-an-address'],
  localhost: ['127.0.0.1', '::1'],
};
const resolve = (host: string): Promise<string[]> =>
  host === 'broken.example.com' ? Promise.reject(new Error('SERVFAIL')) : Promise.resolve(ZONE[host] ?? []);

const check = (url: string, allowLoopback: boolean, allowedPorts = [443]) =>
  checkEndpointUrl(url, { allowLoopback, allowedPorts, resolve });

describe('endpoint URLs (loopback not allowed: production)', () => {
  const accepted = [
    'https://hooks.example.com/directory',
    'https://hooks.example.com:443/directory?source=directory',
    'https://@hooks.example.com/', // empty userinfo: no credentials, the same host
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
  ];
  const refused: Array<[string, string]> = [
    ['plain http', 'http://hooks.example.com/'],
    ['ftp', 'ftp://hooks.example.com/'],
    ['javascript', 'javascript:fetch(1)'],
    ['scheme-relative', '//hooks.example.com/'],
    ['not a URL', 'hooks.example.com'],
    ['user and password', 'https://user:pass@hooks.example.com/'],
    ['user only', 'https://user@hooks.example.com/'],
    ['userinfo naming a public site, host loopback', 'https://hooks.example.com@127.0.0.1/'],
    ['userinfo before the site', 'https://127.0.0.1:443@hooks.example.com/'],
    ['loopback', 'https://127.0.0.1/'],
    ['other loopback', 'https://127.0.0.2/'],
    ['hex address', 'https://0x7f000001/'],
    ['decimal address', 'https://2130706433/'],
    ['octal address', 'https://0177.0.0.1/'],
    ['short address', 'https://127.1/'],
    ['dotted hex', 'https://0x7f.0x0.0x0.0x1/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private (hex form)', 'https://[::ffff:a00:1]/'],
    ['NAT64 of loopback', 'https://[64:ff9b::7f00:1]/'],
    ['6to4 of loopback', 'https://[2002:7f00:1::1]/'],
    ['localhost', 'https://localhost/'],
    ['localhost trailing dot', 'https://localhost./'],
    ['name under localhost', 'https://api.localhost/'],
    ['tab inside the host', 'https://local\thost/'],
    ['look-alike suffix resolving to loopback', 'https://localhost.evil.example/'],
    ['look-alike prefix resolving to a private address', 'https://evil-localhost/'],
    ['IDN homograph (Cyrillic o), resolving nowhere', 'https://l\u043ecalhost/'],
    ['unspecified', 'https://0.0.0.0/'],
    ['unspecified short', 'https://0/'],
    ['this network', 'https://0.1.2.3/'],
    ['private 10/8', 'https://10.0.0.1/'],
    ['private 172.16/12', 'https://172.16.5.4/'],
    ['private 192.168/16', 'https://192.168.1.1/'],
    ['carrier-grade NAT', 'https://100.64.0.1/'],
    ['link-local metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['documentation 192.0.2/24', 'https://192.0.2.10/'],
    ['documentation 198.51.100/24', 'https://198.51.100.7/'],
    ['documentation 203.0.113/24', 'https://203.0.113.9/'],
    ['benchmarking', 'https://198.18.0.1/'],
    ['multicast', 'https://224.0.0.1/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    ['unique local', 'https://[fd00::1]/'],
    ['link-local v6', 'https://[fe80::1]/'],
    ['multicast v6', 'https://[ff02::1]/'],
    ['documentation v6', 'https://[2001:db8::1]/'],
    ['unspecified v6', 'https://[::]/'],
    ['name resolving to a private address', 'https://inside.example.com/'],
    ['name with one private address among public ones', 'https://mixed.example.com/'],
    ['name resolving to loopback', 'https://loopback.example.com/'],
    ['name resolving to the metadata address', 'https://metadata.example.com/'],
    ['name resolving to an IPv4-mapped private address', 'https://mapped.example.com/'],
    ['name resolving to garbage', 'https://garbage.example.com/'],
    ['name resolving to nothing', 'https://nowhere.example.com/'],
    ['resolver failure', 'https://broken.example.com/'],
    ['overlong', `https://hooks.example.com/${'a'.repeat(2_100)}`],
    ['a port other than 443', 'https://hooks.example.com:8443/'],
    ['ssh port of a public address', 'https://8.8.8.8:22/'],
  ];

  it.each(accepted)('accepts %s', async (url) => {
    expect((await check(url, false)).ok).toBe(true);
  });

  it('refuses every hostile form, each with a reason', async () => {
    const wrong: string[] = [];
    for (const [name, url] of refused) {
      const result = await check(url, false);
      if (result.ok) wrong.push(`${name}: accepted ${url}`);
      else if (result.error === '') wrong.push(`${name}: no reason`);
    }
    expect(wrong).toEqual([]);
  });

  it('connects to the first checked address of a name, to the literal of an address', async () => {
    const named = await check('https://hooks.example.com/', false);
    expect(named.ok && named.value.address).toEqual({ address: '93.184.216.34', family: 4 });
    const literal = await check('https://[2606:4700:4700::1111]:8443/', false, [443, 8443]);
    expect(literal.ok && literal.value.address).toEqual({ address: '2606:4700:4700::1111', family: 6 });
    expect(literal.ok && literal.value.target.port).toBe(8443);
  });

  it('tells why for the form (https, credentials, port), one message for every refused address', () => {
    const production = { allowLoopback: false };
    expect(parseEndpointUrl('http://hooks.example.com/', production)).toEqual({
      ok: false,
      error: 'the URL must use https',
    });
    expect(parseEndpointUrl('https://a:b@hooks.example.com/', production)).toEqual({
      ok: false,
      error: 'the URL must not contain a user name or password',
    });
    expect(parseEndpointUrl('https://hooks.example.com:8443/', production)).toEqual({
      ok: false,
      error: 'the port of the URL must be 443',
    });
    for (const url of ['https://10.1.2.3/', 'https://127.0.0.1/', 'https://localhost/', 'https://[::1]/']) {
      expect(parseEndpointUrl(url, production)).toEqual({ ok: false, error: ADDRESS_REFUSED });
    }
  });
});

describe('endpoint URLs with WEBHOOK_ALLOW_LOOPBACK (tests)', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://[::1]:8080/hook',
    'http://localhost:8080/hook',
    'https://127.0.0.1/',
  ])('accepts %s', async (url) => {
    expect((await check(url, true)).ok).toBe(true);
  });

  it.each([
    'http://hooks.example.com/',
    'http://10.0.0.1/',
    'https://10.0.0.1/',
    'https://192.168.1.1/',
    'http://127.0.0.2/',
    'https://169.254.169.254/',
    'https://inside.example.com/',
    'http://0.0.0.0:8080/',
    'https://[fd00::1]/',
  ])('still refuses %s', async (url) => {
    expect((await check(url, true)).ok).toBe(false);
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['1.1.1.1', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:93.184.216.34', true],
    ['127.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['100.127.255.255', false],
    ['100.128.0.1', true],
    ['4000::1', false], // outside global unicast 2000::/3
    ['', false],
    ['1.2.3', false],
  ] as const)('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
