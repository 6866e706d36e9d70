import { createHash } from 'node:crypto';
import type { SearchDocument, Tombstone } from './search-document.js';

/*
 * The digests a `places` row keeps beside its document, so that a write can tell what changed without
 * reading the stored document back. Both hash JSON text as JSON.stringify makes it, and a `json` column
 * keeps that text as it was written, so each equals what PostgreSQL computes from the stored document:
 * what a row written before the column existed is compared with (event-store `doctorDigestInDatabase`,
 * `documentDigestInDatabase`).
 */

/**
 * What `places.doctor_digest` holds for a document: the SHA-256 of its `doctor` as JSON text (`null`
 * for a tombstone), in hex. JSON.stringify writes a nested value exactly as it writes it inside the
 * whole document, so this equals PostgreSQL's
 * `sha256(convert_to(coalesce((document -> 'doctor')::text, 'null'), 'UTF8'))` of the stored document.
 */
export function doctorDigest(document: SearchDocument | Tombstone): string {
  const doctor = 'doctor' in document ? document.doctor : null;
  return sha256Hex(JSON.stringify(doctor ?? null));
}

/**
 * What `places.document_digest` holds for a document serialized as `documentJson`: the SHA-256 of that
 * text, in hex; PostgreSQL's `sha256(convert_to(document::text, 'UTF8'))` of the stored document.
 */
export function documentDigest(documentJson: string): string {
  return sha256Hex(documentJson);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
