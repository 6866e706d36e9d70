import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toSearchDocument, type SearchDocument } from '@directory/domain';
import { SITE_ORIGIN, placeState } from '@directory/testing';
import { placeDigests } from '../src/place-digests.js';

/** A name holding what an encoding could mangle: quotes, a backslash, a newline, umlauts, emoji, U+2028. */
const AWKWARD = 'Praxis "Dr. Ö\\Ü"\nzweite Zeile 🦷 \u2028 Ende';

function servedDocument(name: string): SearchDocument {
  const document = toSearchDocument(placeState({ id: 'p-1', name, country: 'de' }), {
    siteOrigin: SITE_ORIGIN,
  });
  if (!document.served) throw new Error('the fixture place is served');
  return document;
}

const digestsOf = (document: Parameters<typeof placeDigests>[0]) =>
  placeDigests(document, JSON.stringify(document));

describe('placeDigests', () => {
  it('digests the UTF-8 bytes of the document text and of the doctor text inside it', () => {
    const document = servedDocument(AWKWARD);
    const json = JSON.stringify(document);
    const digests = placeDigests(document, json);

    expect(digests.document).toEqual(createHash('sha256').update(Buffer.from(json, 'utf8')).digest());
    // The doctor's text as PostgreSQL's `document -> 'doctor'` cuts it out of the stored text.
    const doctorJson = JSON.stringify(document.doctor);
    expect(json).toContain(`"doctor":${doctorJson}`);
    expect(digests.doctor).toEqual(createHash('sha256').update(Buffer.from(doctorJson, 'utf8')).digest());
    expect(digests.document).toHaveLength(32);
  });

  it('gives an identical document identical digests', () => {
    expect(digestsOf(servedDocument(AWKWARD))).toEqual(digestsOf(servedDocument(AWKWARD)));
  });

  it('changes only the document digest when a field outside the doctor changes', () => {
    const before = servedDocument('Praxis Nord');
    const after = { ...before, searchText: `${before.searchText} refolded` };
    expect(digestsOf(after).document).not.toEqual(digestsOf(before).document);
    expect(digestsOf(after).doctor).toEqual(digestsOf(before).doctor);
  });

  it('changes both digests when the doctor changes', () => {
    const before = digestsOf(servedDocument('Praxis Nord'));
    const after = digestsOf(servedDocument('Praxis Süd'));
    expect(after.document).not.toEqual(before.document);
    expect(after.doctor).not.toEqual(before.doctor);
  });

  it('gives a tombstone, which has no doctor, no doctor digest', () => {
    const tombstone = toSearchDocument(placeState({ id: 'p-1', name: 'Praxis', suppressed: true }), {
      siteOrigin: SITE_ORIGIN,
    });
    expect(tombstone.served).toBe(false);
    expect(digestsOf(tombstone).doctor).toBeNull();
    expect(digestsOf(tombstone).document).toHaveLength(32);
  });
});
