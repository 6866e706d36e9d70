import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

// The webhook address settings: ports endpoint URLs may name, and the DNS endpoint hosts resolve with.

describe('webhook address settings', () => {
  it('defaults to port 443 and the system name servers, 2 s per try, 2 tries', () => {
    const config = loadConfig({});
    expect(config.WEBHOOK_ALLOWED_PORTS).toEqual([443]);
    expect(config.WEBHOOK_DNS_SERVERS).toEqual([]);
    expect(config.WEBHOOK_DNS_TIMEOUT_MS).toBe(2_000);
    expect(config.WEBHOOK_DNS_TRIES).toBe(2);
  });

  it('reads lists of ports and of name servers with or without a port', () => {
    const config = loadConfig({
      WEBHOOK_ALLOWED_PORTS: '443, 8443',
      WEBHOOK_DNS_SERVERS: '10.0.0.53,127.0.0.1:5353,2001:4860:4860::8888,[::1]:5353',
      WEBHOOK_DNS_TIMEOUT_MS: '500',
      WEBHOOK_DNS_TRIES: '3',
    });
    expect(config.WEBHOOK_ALLOWED_PORTS).toEqual([443, 8443]);
    expect(config.WEBHOOK_DNS_SERVERS).toEqual([
      '10.0.0.53',
      '127.0.0.1:5353',
      '2001:4860:4860::8888',
      '[::1]:5353',
    ]);
    expect(config.WEBHOOK_DNS_TIMEOUT_MS).toBe(500);
    expect(config.WEBHOOK_DNS_TRIES).toBe(3);
  });

  it.each([
    ['WEBHOOK_ALLOWED_PORTS', '443,0'],
    ['WEBHOOK_ALLOWED_PORTS', '443,70000'],
    ['WEBHOOK_ALLOWED_PORTS', 'https'],
    ['WEBHOOK_ALLOWED_PORTS', ' , '],
    ['WEBHOOK_DNS_SERVERS', 'dns.example.com'],
    ['WEBHOOK_DNS_SERVERS', '10.0.0.53:0'],
    ['WEBHOOK_DNS_SERVERS', '::1:5353x'],
    ['WEBHOOK_DNS_SERVERS', '[10.0.0.53]:53'],
    ['WEBHOOK_DNS_SERVERS', '999.0.0.1:53'],
    ['WEBHOOK_DNS_TIMEOUT_MS', '0'],
    ['WEBHOOK_DNS_TRIES', '9'],
  ])('refuses %s=%s, naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });

  it('reads a hostile server list in linear time', () => {
    const started = performance.now();
    expect(() => loadConfig({ WEBHOOK_DNS_SERVERS: `[${'1:'.repeat(50_000)}` })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_DNS_SERVERS: `${'1.'.repeat(50_000)}:53` })).toThrow(ConfigError);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
