import { describe, expect, it } from 'vitest';
import { emailSchema } from '../src/auth/auth.service.js';
import { hashPassword, passwordCheckFor, verifyPassword } from '../src/auth/password.js';
import { html, rawTrusted } from '../src/pages/html.js';
import { fastestOfThreeMs } from '@directory/testing';

describe('password hashing', () => {
  it('salts every hash, carries its parameters and verifies only the right password', async () => {
    const first = await hashPassword('a long passphrase');
    const second = await hashPassword('a long passphrase');
    expect(first).not.toBe(second);
    expect(first.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(await verifyPassword('a long passphrase', first)).toBe(true);
    expect(await verifyPassword('a long passphrasE', first)).toBe(false);
  });

  const UNUSABLE = ['!', '', 'scrypt$x$8$1$abc$def', 'sha256$abc', 'scrypt$16384$8$1$$'];

  it('never verifies against unusable or foreign hashes, nor without one', async () => {
    for (const stored of [...UNUSABLE, null]) {
      expect(await verifyPassword('!', stored)).toBe(false);
    }
  });

  it("spends a real hash's scrypt work on a missing or unusable hash (operator-created accounts)", async () => {
    const real = passwordCheckFor(await hashPassword('a long passphrase'));
    expect(real.canMatch).toBe(true);
    const cost = ({ check }: ReturnType<typeof passwordCheckFor>) => ({
      n: check.n,
      r: check.r,
      p: check.p,
      keyLength: check.expected.length,
    });
    for (const stored of [...UNUSABLE, null]) {
      const check = passwordCheckFor(stored);
      expect(check.canMatch, String(stored)).toBe(false);
      expect(cost(check), String(stored)).toEqual(cost(real));
    }
  });
});

describe('html template', () => {
  it('escapes every interpolation, in text and attributes', () => {
    const name = `"><script>alert('x')</script>&`;
    const out = html`<p title="${name}">${name}</p>`.value;
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
  });

  it('keeps nested templates and trusted constants, drops empty values', () => {
    const items = ['a<b', 'c'];
    expect(
      html`<ul>
          ${items.map((item) => html`<li>${item}</li>`)}
        </ul>
        ${null}${false}${rawTrusted('<hr>')}`.value.replace(/>\s+</g, '><'),
    ).toBe('<ul><li>a&lt;b</li><li>c</li></ul><hr>');
  });
});

describe('sign-up email', () => {
  const messageFor = (email: string) => emailSchema.safeParse(email).error?.issues[0]?.message;

  it('keeps a valid address, trimmed, and says what is wrong with any other', () => {
    expect(emailSchema.parse('  ada@example.com ')).toBe('ada@example.com');
    expect(messageFor('  ')).toBe('Enter your email address.');
    expect(messageFor('ada@localhost')).toBe('Enter an email address like name@example.com.');
    expect(messageFor(`${'a'.repeat(250)}@example.com`)).toBe('That email address is too long.');
  });

  it('refuses a hostile 100,000-character value at once (the former pattern backtracked over it)', () => {
    const milliseconds = fastestOfThreeMs(() => {
      expect(messageFor(`a@${'.'.repeat(100_000)}@`)).toBe('That email address is too long.');
    });
    expect(milliseconds).toBeLessThan(50);
  });
});
