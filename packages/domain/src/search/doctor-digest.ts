import { createHash } from 'node:crypto';
import type { SearchDocument, Tombstone } from './search-document.js';

/**
 * What `places.doctor_digest` holds for a document: the SHA-256 of its `doctor` as JSON text (`null`
 * for a tombstone), in hex. JSON.stringify writes a nested value exactly as it writes it inside the
 * whole document, and a `json` column keeps its text, so this equals PostgreSQL's
 * `sha256(convert_to(coalesce((document -> 'doctor')::text, 'null'), 'UTF8'))` of the stored document:
 * what a row written before the column existed is compared with (event-store `doctorDigestInDatabase`).
 */
export function doctorDigest(document: SearchDocument | Tombstone): string {
  const doctor = 'doctor' in document ? document.doctor : null;
  return createHash('sha256')
    .update(JSON.stringify(doctor ?? null))
    .digest('hex');
}
