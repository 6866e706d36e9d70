import { describe, expect, it } from 'vitest';
import { normalizePhone, phoneRegionFor } from '../src/places/phone-number.js';
import { parsePublicHttpUrl } from '../src/places/public-url.js';

describe('parsePublicHttpUrl', () => {
  it.each([
    'https://example.com',
    'http://praxis-mueller.de/kontakt?lang=de#map',
    'https://maps.google.com/?cid=123',
    'https://www.example.co.uk:8443/path',
    'https://example.com./',
    'https://8.8.8.8/',
    'https://172.15.255.255/',
    'https://172.32.0.1/',
    'https://exämple.de/',
  ])('accepts %s', (url) => {
    expect(parsePublicHttpUrl(url)).toBeInstanceOf(URL);
  });

  it.each([
    ['not a URL', 'praxis-mueller.de'],
    ['empty', ''],
    ['ftp', 'ftp://example.com/'],
    ['javascript', 'javascript:alert(1)'],
    ['mailto', 'mailto:a@example.com'],
    ['data', 'data:text/html,hi'],
    ['a user', 'https://user@example.com/'],
    ['user and password', 'https://user:pass@example.com/'],
    ['an empty password', 'https://user:@example.com/'],
    ['localhost', 'http://localhost:8080/'],
    ['localhost with a trailing dot', 'http://localhost./'],
    ['a .localhost name', 'http://app.localhost/'],
    ['a .local name', 'http://printer.local/'],
    ['a .internal name', 'http://db.corp.internal/'],
    ['a single-label name', 'http://intranet/'],
    ['an empty label', 'http://example..com/'],
    ['loopback', 'http://127.0.0.1/'],
    ['loopback elsewhere in 127/8', 'http://127.255.0.9/'],
    ['loopback in hex', 'http://0x7f.1/'],
    ['loopback as one number', 'http://2130706433/'],
    ['loopback percent-encoded', 'http://%31%32%37.0.0.1/'],
    ['10/8', 'http://10.1.2.3/'],
    ['172.16/12 low end', 'http://172.16.0.1/'],
    ['172.16/12 high end', 'http://172.31.255.255/'],
    ['192.168/16', 'http://192.168.1.1/'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 unique local', 'http://[fc00::1]/'],
    ['IPv6 unique local fd', 'http://[fd12:3456::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['over 2048 characters', `https://example.com/${'a'.repeat(2048)}`],
  ])('rejects %s', (_name, url) => {
    expect(parsePublicHttpUrl(url)).toBeNull();
  });
});

describe('normalizePhone', () => {
  it.each([
    ['030 1234567', 'DE', '+49301234567'],
    ['(030) 123-4567', 'DE', '+49301234567'],
    ['0049 30 1234567', 'DE', '+49301234567'],
    ['+49 151 23456789', undefined, '+4915123456789'],
    ['612 34 56 78', 'ES', '+34612345678'],
    ['020 7946 0958', 'gb', '+442079460958'],
    ['+34 612 345 678', 'DE', '+34612345678'],
  ])('normalizes %s (default %s) to %s', (raw, country, expected) => {
    expect(normalizePhone(raw, country)).toBe(expected);
  });

  it.each([
    ['too short', '123', 'DE'],
    ['letters', 'call us', 'DE'],
    ['empty', '   ', 'DE'],
    ['national format without a country', '030 1234567', undefined],
    [
      'a German number of valid length in an unassigned range (needs full metadata)',
      '+49 199 1234567',
      undefined,
    ],
    ['junk of excessive length', `+49 30 ${'1'.repeat(80)}`, 'DE'],
  ])('rejects %s', (_name, raw, country) => {
    expect(normalizePhone(raw, country)).toBeNull();
  });

  it('picks the first region libphonenumber supports, uppercased', () => {
    expect(phoneRegionFor('XX', 'gb')).toBe('GB');
    expect(phoneRegionFor(null, undefined, 'pt')).toBe('PT');
    expect(phoneRegionFor(null)).toBeUndefined();
  });
});
