import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_TOKEN_RANDOM_BYTES,
  mintAccountToken,
  readAccountToken,
  type AccountTokenPurpose,
} from '../src/accounts/account-token.js';
import { passwordResetMail, verificationMail } from '../src/mail/mail-templates.js';
import { addressRangeOf, browserNameOf } from '../src/sessions/session-origin.js';

const SECRET = 'unit-console-secret-of-at-least-32-chars';
const randomPart = fc.uint8Array({
  minLength: ACCOUNT_TOKEN_RANDOM_BYTES,
  maxLength: ACCOUNT_TOKEN_RANDOM_BYTES,
});
const purpose = fc.constantFrom<AccountTokenPurpose>('verify-email', 'reset-password');
const otherPurpose = (value: AccountTokenPurpose): AccountTokenPurpose =>
  value === 'verify-email' ? 'reset-password' : 'verify-email';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

// fast-check prints the seed and path of a failing run; pass both to fc.assert to replay it.
describe('account link tokens', () => {
  it('read back as the id they were minted with, for their purpose and secret only', () => {
    fc.assert(
      fc.property(randomPart, purpose, (random, chosen) => {
        const { token, id } = mintAccountToken(SECRET, chosen, random);
        expect(token).toMatch(/^[\w-]{43}\.[\w-]{43}$/);
        expect(id).toMatch(/^[0-9a-f]{64}$/);
        expect(token).not.toContain(id);
        expect(readAccountToken(SECRET, chosen, token)).toBe(id);
        expect(readAccountToken(SECRET, otherPurpose(chosen), token)).toBeNull();
        expect(readAccountToken(`${SECRET}-rotated`, chosen, token)).toBeNull();
      }),
    );
  });

  it('refuse any token with one character changed, cut, extended or with a part swapped', () => {
    fc.assert(
      fc.property(
        randomPart,
        purpose,
        fc.nat(86),
        fc.constantFrom(...BASE64URL, '.', '=', '%', ' '),
        (random, chosen, position, replacement) => {
          const { token } = mintAccountToken(SECRET, chosen, random);
          const index = position % token.length;
          const tampered = token.slice(0, index) + replacement + token.slice(index + 1);
          if (tampered !== token) expect(readAccountToken(SECRET, chosen, tampered)).toBeNull();
          expect(readAccountToken(SECRET, chosen, token.slice(0, index))).toBeNull();
          expect(readAccountToken(SECRET, chosen, `${token}${replacement}`)).toBeNull();
          const [left = '', right = ''] = token.split('.');
          expect(readAccountToken(SECRET, chosen, `${right}.${left}`)).toBeNull();
        },
      ),
    );
  });

  it("refuse another token's signature on a random part (no mixing of two links)", () => {
    fc.assert(
      fc.property(randomPart, randomPart, purpose, (first, second, chosen) => {
        fc.pre(Buffer.compare(Buffer.from(first), Buffer.from(second)) !== 0);
        const a = mintAccountToken(SECRET, chosen, first).token.split('.');
        const b = mintAccountToken(SECRET, chosen, second).token.split('.');
        expect(readAccountToken(SECRET, chosen, `${a[0]}.${b[1]}`)).toBeNull();
      }),
    );
  });

  it('answer arbitrary text with null, quickly and without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), purpose, (text, chosen) => {
        expect(readAccountToken(SECRET, chosen, text)).toBeNull();
      }),
    );
    const started = performance.now();
    readAccountToken(SECRET, 'verify-email', `${'a'.repeat(100_000)}.`);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('need exactly 32 random bytes', () => {
    expect(() => mintAccountToken(SECRET, 'verify-email', new Uint8Array(16))).toThrow(RangeError);
  });
});

describe('account mails', () => {
  it('carry the link whole in the text part and escaped in the HTML part', () => {
    const link = 'https://console.test/verify-email?token=abc.def&x=<y>';
    const mail = verificationMail({ email: 'a"<b>@example.com', link, validHours: 24 });
    expect(mail.text.split('\n')).toContain(link);
    expect(mail.html).toContain('https://console.test/verify-email?token=abc.def&amp;x=&lt;y&gt;');
    expect(mail.html).not.toContain('<b>@');
    expect(mail.subject).toContain('confirm your e-mail address');
    const reset = passwordResetMail({
      link: 'https://console.test/reset-password?token=t',
      validMinutes: 30,
    });
    expect(reset.text).toContain('30 minutes');
    expect(reset.text.split('\n')).toContain('https://console.test/reset-password?token=t');
  });
});

describe('session origin', () => {
  it('keeps only the network of an address: an IPv4 /24, an IPv6 /48', () => {
    expect(addressRangeOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(addressRangeOf('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(addressRangeOf('2001:db8:1234:5678::1')).toBe('2001:db8:1234::/48');
    expect(addressRangeOf('not an address')).toBeNull();
  });

  it('names the browser and system of a User-Agent, and says when it cannot', () => {
    expect(browserNameOf('Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0')).toBe(
      'Firefox 132 on Linux',
    );
    expect(browserNameOf(null)).toBe('Unknown browser');
    expect(browserNameOf('curl/8.5.0')).not.toBe('');
  });
});
