import { createHash } from 'node:crypto';

/**
 * API key secrets: a mode prefix (`dk_live_`, or `dk_test_` for a sandbox key) + 43 base62 characters of
 * body + 6 base62 characters of checksum (57 characters in all), e.g. `dk_live_0Xb…Q3kZ7a`.
 *
 * - Body: 32 random bytes (256 bits) as one big-endian number in base62, left-padded with '0' to 43
 *   characters (62^43 > 2^256), so every key has the same length.
 * - Checksum: CRC-32 (IEEE) of the body's ASCII text in base62, left-padded to 6 characters
 *   (62^6 > 2^32); a test key's covers its prefix too (`dk_test_` + body), so a live key whose prefix
 *   was edited is malformed rather than a well-formed key of the other mode (live keys keep the
 *   checksum they always had). It is not a security measure: it lets the API reject typos and truncated or
 *   made-up keys without a database lookup, and lets leak scanners confirm a hit offline. A CRC-32
 *   catches every single-character change (any error burst shorter than 32 bits).
 * - The mode is the prefix: a `dk_test_` key reads the sandbox dataset, never live records, and a
 *   `dk_live_` key never sandbox ones (docs/api.md, "Sandbox").
 * - The fixed prefixes and length make leaked keys easy to find (`API_KEY_PATTERN`); the `_` separators
 *   keep a double-click selecting the whole key.
 * Only the SHA-256 hex of the whole secret is stored; `prefix` (first 12 characters) is shown in the
 * console so a user can tell keys apart.
 */
export const API_KEY_MODES = ['live', 'test'] as const;
/** `live` keys read the directory; `test` keys the sandbox dataset (docs/api.md, "Sandbox"). */
export type ApiKeyMode = (typeof API_KEY_MODES)[number];
export const API_KEY_PREFIXES: Readonly<Record<ApiKeyMode, string>> = Object.freeze({
  live: 'dk_live_',
  test: 'dk_test_',
});
/** Whether a text names a key mode (a form field, a CLI option). */
export function isApiKeyMode(value: string): value is ApiKeyMode {
  return (API_KEY_MODES as readonly string[]).includes(value);
}

/**
 * Either mode's prefix as a regular expression's source, for the patterns below and log redaction: one
 * fixed alternation (linear), kept equal to API_KEY_PREFIXES by a unit spec.
 */
export const API_KEY_PREFIX_SOURCE = 'dk_(?:live|test)_';
// Both prefixes have the same length, so every key has one length.
const PREFIX_LENGTH = API_KEY_PREFIXES.live.length;
export const API_KEY_RANDOM_BYTES = 32;
export const API_KEY_BODY_LENGTH = 43;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = PREFIX_LENGTH + API_KEY_BODY_LENGTH + API_KEY_CHECKSUM_LENGTH;
export const API_KEY_DISPLAY_PREFIX_LENGTH = 12;

/**
 * For secret scanners and log redaction: matches a key anywhere in a text. Deliberately not global
 * (a shared /g regex keeps `lastIndex` between calls); use `new RegExp(API_KEY_PATTERN.source, 'g')`.
 */
export const API_KEY_PATTERN = new RegExp(`\\b${API_KEY_PREFIX_SOURCE}[0-9A-Za-z]{49}\\b`);

/**
 * The start of any key-like text of either mode (`dk_live_`, `dk_test_`) in a text already lower-cased:
 * what log redaction and the key-in-query check look for, well-formed or not.
 */
export function containsApiKeyPrefix(lowerCaseText: string): boolean {
  return Object.values(API_KEY_PREFIXES).some((prefix) => lowerCaseText.includes(prefix));
}

export type GeneratedApiKey = {
  /** The full secret: shown once, never stored. */
  secret: string;
  /** The leading characters shown in the console, e.g. `dk_live_0Xb4`. */
  prefix: string;
  mode: ApiKeyMode;
  /** SHA-256 hex of the secret: the only form that is stored. */
  hash: string;
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const WELL_FORMED = new RegExp(`^${API_KEY_PREFIX_SOURCE}[0-9A-Za-z]{49}$`);

/** Randomness comes in as an argument (the caller passes `crypto.randomBytes(API_KEY_RANDOM_BYTES)`). */
export function generateApiKey(randomBytes: Uint8Array, mode: ApiKeyMode = 'live'): GeneratedApiKey {
  if (randomBytes.length !== API_KEY_RANDOM_BYTES) {
    throw new Error(`generateApiKey needs exactly ${API_KEY_RANDOM_BYTES} random bytes`);
  }
  let value = 0n;
  for (const byte of randomBytes) value = (value << 8n) | BigInt(byte);
  const body = toBase62(value, API_KEY_BODY_LENGTH);
  const secret = API_KEY_PREFIXES[mode] + body + checksumOf(mode, body);
  return { secret, prefix: apiKeyDisplayPrefix(secret), mode, hash: hashApiKey(secret) };
}

/**
 * The mode a key's secret or displayed prefix names; a stored key's mode is read from its prefix (the
 * secret carries it, so the two can never disagree).
 */
export function apiKeyModeOf(secretOrPrefix: string): ApiKeyMode {
  return secretOrPrefix.startsWith(API_KEY_PREFIXES.test) ? 'test' : 'live';
}

/** Prefix, charset, length and checksum: a cheap check before any database lookup. */
export function isWellFormedApiKey(secret: string): boolean {
  // The type says string, but this guards untrusted input at the edge: be defensive.
  if (typeof secret !== 'string' || secret.length !== API_KEY_LENGTH || !WELL_FORMED.test(secret)) {
    return false;
  }
  const body = secret.slice(PREFIX_LENGTH, PREFIX_LENGTH + API_KEY_BODY_LENGTH);
  return secret.slice(PREFIX_LENGTH + API_KEY_BODY_LENGTH) === checksumOf(apiKeyModeOf(secret), body);
}

/** SHA-256 hex of the full secret, as stored and looked up. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The leading characters of a secret that may be displayed and stored beside the hash. */
export function apiKeyDisplayPrefix(secret: string): string {
  return secret.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
}

function checksumOf(mode: ApiKeyMode, body: string): string {
  const covered = mode === 'live' ? body : API_KEY_PREFIXES.test + body;
  return toBase62(BigInt(crc32(covered)), API_KEY_CHECKSUM_LENGTH);
}

function toBase62(value: bigint, width: number): string {
  let digits = '';
  let rest = value;
  while (rest > 0n) {
    digits = BASE62.charAt(Number(rest % 62n)) + digits;
    rest /= 62n;
  }
  if (digits.length > width) throw new Error(`value does not fit in ${width} base62 digits`);
  return digits.padStart(width, '0');
}

const CRC32_TABLE = buildCrc32Table();

function buildCrc32Table(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let bit = 0; bit < 8; bit += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** CRC-32 (IEEE 802.3, as zlib) of an ASCII string; the body is base62, so one byte per character. */
function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i += 1) {
    crc = (CRC32_TABLE[(crc ^ ascii.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
