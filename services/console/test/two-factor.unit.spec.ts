import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RECOVERY_CODE_COUNT,
  SIGN_IN_TICKET_TTL_S,
  TOTP_PERIOD_S,
  acceptedTotpStep,
  hashRecoveryCode,
  mintSignInTicket,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  openTotpSecret,
  readSignInTicket,
  sealTotpSecret,
  totpCodeAt,
  totpEnrolAndNextCodes,
  totpUri,
} from '../src/accounts/two-factor.js';

const SECRET = 'unit-console-secret-of-at-least-32-chars';
const accountId = fc.uuid();
const instant = fc
  .integer({ min: 1_600_000_000, max: 2_000_000_000 })
  .map((seconds) => new Date(seconds * 1000));

// fast-check prints the seed and path of a failing run; pass both to fc.assert to replay it.
describe('two-factor sign-in tickets', () => {
  it('name their account until they expire, and only under their secret', () => {
    fc.assert(
      fc.property(
        accountId,
        instant,
        fc.integer({ min: 0, max: SIGN_IN_TICKET_TTL_S - 1 }),
        (id, now, later) => {
          const ticket = mintSignInTicket(SECRET, id, now);
          expect(readSignInTicket(SECRET, ticket, new Date(now.getTime() + later * 1000))).toBe(id);
          expect(
            readSignInTicket(SECRET, ticket, new Date(now.getTime() + SIGN_IN_TICKET_TTL_S * 1000)),
          ).toBeNull();
          expect(readSignInTicket(`${SECRET}-rotated`, ticket, now)).toBeNull();
        },
      ),
    );
  });

  it('refuse a ticket with a character changed, cut, or moved to another account', () => {
    fc.assert(
      fc.property(
        accountId,
        accountId,
        instant,
        fc.nat(200),
        fc.string({ minLength: 1, maxLength: 1 }),
        (id, other, now, position, replacement) => {
          const ticket = mintSignInTicket(SECRET, id, now);
          const index = position % ticket.length;
          const tampered = ticket.slice(0, index) + replacement + ticket.slice(index + 1);
          if (tampered !== ticket) expect(readSignInTicket(SECRET, tampered, now)).toBeNull();
          expect(readSignInTicket(SECRET, ticket.slice(0, index), now)).toBeNull();
          if (other !== id) expect(readSignInTicket(SECRET, ticket.replace(id, other), now)).toBeNull();
        },
      ),
    );
  });
});

describe('TOTP codes', () => {
  it('accept the code of the step (and one either side) once: an earlier or the same step is a replay', () => {
    const secret = newTotpSecret();
    fc.assert(
      fc.property(instant, fc.constantFrom(-1, 0, 1), (now, offset) => {
        const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
        const code = totpCodeAt(secret, new Date(now.getTime() + offset * TOTP_PERIOD_S * 1000));
        expect(acceptedTotpStep(secret, code, now, null)).toBe(step + offset);
        expect(acceptedTotpStep(secret, code, now, step + offset)).toBeNull();
        expect(acceptedTotpStep(secret, code, now, step + offset - 1)).toBe(step + offset);
        // Two steps away: refused.
        const stale = totpCodeAt(secret, new Date(now.getTime() - 2 * TOTP_PERIOD_S * 1000));
        if (stale !== code && stale !== totpCodeAt(secret, now))
          expect(acceptedTotpStep(secret, stale, now, null)).toBeNull();
      }),
    );
  });

  it('of the tests (enrol now, the next step after) are accepted whatever step boundary the server checks them across', () => {
    const secret = newTotpSecret();
    const period = TOTP_PERIOD_S * 1000;
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: period - 1 }),
        fc.integer({ min: 0, max: period - 1 }),
        fc.integer({ min: 0, max: period - 1 }),
        (at, intoStep, enrolDelay, laterDelay) => {
          const now = new Date(at.getTime() + intoStep);
          const { enrol, next } = totpEnrolAndNextCodes(secret, now);
          const enrolled = acceptedTotpStep(secret, enrol, new Date(now.getTime() + enrolDelay), null);
          expect(enrolled).not.toBeNull();
          const later = new Date(now.getTime() + enrolDelay + laterDelay);
          expect(acceptedTotpStep(secret, next, later, enrolled)).not.toBeNull();
        },
      ),
    );
  });

  it("refuse another secret's code and anything but six digits", () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const secret = newTotpSecret();
    const code = totpCodeAt(secret, now);
    expect(acceptedTotpStep(secret, ` ${code.slice(0, 3)} ${code.slice(3)} `, now, null)).not.toBeNull();
    for (const typed of ['', '12345', '1234567', 'abcdef', `${code}0`])
      expect(acceptedTotpStep(secret, typed, now, null)).toBeNull();
    const other = newTotpSecret();
    if (totpCodeAt(other, now) !== code) expect(acceptedTotpStep(other, code, now, null)).toBeNull();
  });

  it('are sealed at rest, and open only under the same console secret', () => {
    const secret = newTotpSecret();
    const sealed = sealTotpSecret(secret, SECRET);
    expect(sealed.toString('latin1')).not.toContain(secret);
    expect(openTotpSecret(sealed, SECRET)).toBe(secret);
    expect(() => openTotpSecret(sealed, `${SECRET}-rotated`)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] = (altered.at(-1) ?? 0) ^ 1;
    expect(() => openTotpSecret(altered, SECRET)).toThrow();
    expect(totpUri(secret, 'a@example.com')).toMatch(/^otpauth:\/\/totp\/.*secret=/);
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes that read back whatever their case and dash, hashed apart', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
      expect(normalizeRecoveryCode(code.toUpperCase().replace('-', ' '))).toBe(code.replace('-', ''));
      expect(hashRecoveryCode(code.replace('-', ''))).not.toContain(code.replace('-', ''));
    }
    expect(normalizeRecoveryCode('123456')).toBeNull();
    expect(normalizeRecoveryCode('x'.repeat(65))).toBeNull();
  });
});
