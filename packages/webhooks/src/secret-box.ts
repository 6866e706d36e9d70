import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Endpoints' signing secrets at rest: AES-256-GCM under a key derived from WEBHOOK_SECRET_KEY, so a copy
 * of the database alone (a backup, a replica) does not let anyone sign as us.
 *
 * Layout: version byte (1) | 12-byte IV | 16-byte tag | ciphertext.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyOf(secretKey: string): Buffer {
  // HKDF turns a configured passphrase of any length (at least 32 characters) into exactly 32 bytes.
  return Buffer.from(hkdfSync('sha256', secretKey, '', 'directory webhook secrets v1', 32));
}

export function sealSecret(secret: string, secretKey: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

/** The secret sealed in `sealed`; throws when it was sealed under another key or altered. */
export function openSecret(sealed: Uint8Array, secretKey: string): string {
  const box = Buffer.from(sealed);
  if (box.length < 1 + IV_BYTES + TAG_BYTES || box[0] !== VERSION) {
    throw new Error('webhook secret: unknown format');
  }
  const iv = box.subarray(1, 1 + IV_BYTES);
  const tag = box.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(box.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
