import { hash } from 'node:crypto';
import type { PlaceProjection } from '@directory/domain';

/**
 * What the places upsert compares instead of the documents' texts (migration 0013): a digest of the
 * document's JSON text as stored, and of its doctor's JSON text, which is what the changes feed compares.
 * A document without a doctor (a tombstone) has no doctor digest, as its `document -> 'doctor'` is null.
 */
export type PlaceDigests = { document: Buffer; doctor: Buffer | null };

/**
 * SHA-256 of the UTF-8 bytes of `documentJson` (JSON.stringify of `document`, the text stored) and of
 * JSON.stringify of its doctor. The digests only tell changed documents from unchanged ones (nothing
 * here is security-relevant). SHA-256 because it costs what SHA-1 costs in Node on CPUs with the SHA
 * extensions (both a few µs per 2.5 KB document, mostly encoding the text as UTF-8), and PostgreSQL has
 * it built in (`sha256(convert_to(document::text, 'UTF8'))`; SHA-1 needs pgcrypto), so a statement that
 * writes documents itself can store the same digests. Not MD5: FIPS-mode OpenSSL builds refuse it.
 *
 * JSON.stringify of the doctor is the very text the document's JSON holds for it (JSON.stringify
 * serializes a member as it serializes that value alone), so the digest is the digest of
 * `(document -> 'doctor')::text` too.
 */
export function placeDigests(document: PlaceProjection['document'], documentJson: string): PlaceDigests {
  return {
    document: sha256(documentJson),
    doctor: 'doctor' in document ? sha256(JSON.stringify(document.doctor)) : null,
  };
}

function sha256(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}
