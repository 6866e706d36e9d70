import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { PRODUCT_NAME } from '../pages/layout.js';

/**
 * Two-factor sign-in, the pure part: TOTP secrets and codes (RFC 6238 through `otpauth`: SHA-1, six
 * digits, 30-second steps, as every authenticator app reads them), the secret's encryption at rest,
 * recovery codes and the signed ticket that carries a sign-in from the password step to the code step.
 * Nothing here touches the database or the network.
 */

export const TOTP_PERIOD_S = 30;
const TOTP_DIGITS = 6;
/** A code of the previous or next step is accepted too (clocks and typing take time). */
const TOTP_WINDOW = 1;
const SECRET_BYTES = 20;

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({
    issuer: `${PRODUCT_NAME} Console`,
    label: email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://` URI an authenticator app scans (the QR code's content). */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** The code of the step `at` falls in (the tests' authenticator). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32, '').generate({ timestamp: at.getTime() });
}

/**
 * The tests' authenticator for turning two-factor on and then using it: this step's code to enrol,
 * the next step's for what follows. Both are accepted whichever step the server is in when it
 * checks them (this one or the next, within one period), and the second is always a later step
 * than the first, so it is never taken for a replay.
 */
export function totpEnrolAndNextCodes(secretBase32: string, now: Date): { enrol: string; next: string } {
  return {
    enrol: totpCodeAt(secretBase32, now),
    next: totpCodeAt(secretBase32, new Date(now.getTime() + TOTP_PERIOD_S * 1000)),
  };
}

/** What a typed code looks like: six digits, spaces allowed between them. */
export function normalizeTotpCode(input: string): string | null {
  const code = input.replace(/\s/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/**
 * The time step a code is valid for at `now` (within one step either side), or null. A step at or
 * before `lastStep` (the last accepted one) is refused: a code works once.
 */
export function acceptedTotpStep(
  secretBase32: string,
  input: string,
  now: Date,
  lastStep: number | null,
): number | null {
  const token = normalizeTotpCode(input);
  if (token === null) return null;
  const delta = totpOf(secretBase32, '').validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

// --- the secret at rest: AES-256-GCM under a key derived from CONSOLE_SECRET ---

const SEAL_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function sealKey(consoleSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', consoleSecret, '', 'console totp secrets v1', 32));
}

export function sealTotpSecret(secretBase32: string, consoleSecret: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKey(consoleSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([SEAL_VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

/** The sealed secret; throws when it was sealed under another CONSOLE_SECRET or altered. */
export function openTotpSecret(sealed: Uint8Array, consoleSecret: string): string {
  const box = Buffer.from(sealed);
  if (box.length < 1 + IV_BYTES + TAG_BYTES || box[0] !== SEAL_VERSION)
    throw new Error('totp secret: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(consoleSecret), box.subarray(1, 1 + IV_BYTES));
  decipher.setAuthTag(box.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(box.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

// --- recovery codes ---

export const RECOVERY_CODE_COUNT = 10;
// Crockford-like: no 0/O, 1/I/L confusion. 10 characters of 32: 50 bits each.
const RECOVERY_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';

/** Ten fresh codes as shown once (`xxxxx-xxxxx`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const characters = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

/** A typed recovery code in its stored form (case, spaces and the dash do not matter), or null. */
export function normalizeRecoveryCode(input: string): string | null {
  if (input.length > 64) return null;
  const code = input.toLowerCase().replace(/[\s-]/g, '');
  return /^[2-9a-z]{10}$/.test(code) ? code : null;
}

/** What the database keeps of a recovery code (50 random bits: a fast hash is enough). */
export function hashRecoveryCode(normalized: string): string {
  return createHash('sha256').update(`console-recovery-code\n${normalized}`).digest('hex');
}

// --- the ticket between the password step and the code step ---

/** How long the code step may follow the password step. */
export const SIGN_IN_TICKET_TTL_S = 5 * 60;

function ticketSignature(consoleSecret: string, payload: string): string {
  return createHmac('sha256', consoleSecret).update(`console-2fa-ticket\n${payload}`).digest('base64url');
}

/** A ticket saying the password of `accountId` was right, until `now` + SIGN_IN_TICKET_TTL_S. */
export function mintSignInTicket(consoleSecret: string, accountId: string, now: Date): string {
  const payload = `${accountId}.${Math.floor(now.getTime() / 1000) + SIGN_IN_TICKET_TTL_S}`;
  return `${payload}.${ticketSignature(consoleSecret, payload)}`;
}

/** The account a ticket is for while it is unexpired and unaltered, else null. */
export function readSignInTicket(consoleSecret: string, ticket: string, now: Date): string | null {
  if (ticket.length > 200) return null;
  const parts = ticket.split('.');
  if (parts.length !== 3) return null;
  const [accountId = '', expires = '', signature = ''] = parts;
  if (!/^\d{1,12}$/.test(expires)) return null;
  const expected = Buffer.from(ticketSignature(consoleSecret, `${accountId}.${expires}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return Number(expires) * 1000 > now.getTime() ? accountId : null;
}
