import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { doctorDigest, documentDigest } from '../src/search/place-digests.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('doctorDigest', () => {
  it("digests the doctor's JSON text as it stands inside the serialized document", () => {
    const document = {
      served: true,
      placeId: 'p1',
      doctor: { id: 'p1', name: 'Praxis Dr. Jülich "Mitte"', specialties: ['Dermatologie'], rating: 4 },
      country: 'DE',
    } as unknown as Parameters<typeof doctorDigest>[0];
    const serialized = JSON.stringify(document);
    const start = serialized.indexOf('"doctor":') + '"doctor":'.length;
    const slice = serialized.slice(start, serialized.indexOf(',"country"'));
    expect(doctorDigest(document)).toBe(sha256(slice));
    expect(doctorDigest(document)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("digests a tombstone as JSON null, as a stored document's missing `doctor`", () => {
    expect(doctorDigest({ served: false, placeId: 'p1' })).toBe(sha256('null'));
  });
});

describe('documentDigest', () => {
  it('digests the serialized document as its UTF-8 text, as PostgreSQL hashes the stored json', () => {
    const documentJson = JSON.stringify({ served: true, doctor: { name: 'Zahnarztpraxis Ärztehaus 🦷' } });
    expect(documentDigest(documentJson)).toBe(sha256(documentJson));
    expect(documentDigest(documentJson)).not.toBe(documentDigest(`${documentJson} `));
  });
});
