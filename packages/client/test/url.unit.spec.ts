import { describe, expect, it } from 'vitest';
import { MAX_BATCH_CHARACTERS, splitIntoBatches } from '../src/batches.js';
import { buildUrl, pathSegment } from '../src/url.js';

describe('buildUrl', () => {
  it('sorts the parameters, leaves out undefined and null, and writes booleans and numbers plainly', () => {
    expect(
      buildUrl('http://127.0.0.1:3000', '/api/v1/doctors', {
        q: 'zahn arzt',
        country: 'de',
        limit: 10,
        whatsapp: false,
        cursor: undefined,
        city: null,
      }),
    ).toBe('http://127.0.0.1:3000/api/v1/doctors?country=de&limit=10&q=zahn%20arzt&whatsapp=false');
  });

  it('keeps a base path prefix, with or without a trailing slash', () => {
    expect(buildUrl('https://example.com/directory/', '/api/v1/key')).toBe(
      'https://example.com/directory/api/v1/key',
    );
    expect(buildUrl('https://example.com/directory', '/api/v1/key')).toBe(
      'https://example.com/directory/api/v1/key',
    );
  });

  it('encodes each list entry alone and joins them with plain commas (batch get)', () => {
    const url = buildUrl('http://h', '/api/v1/doctors', {
      ids: ['ChIJ1', 'https://www.example/de/aerzte/de/berlin/praxis?x=1&y', 'a,b'],
    });
    expect(url).toBe(
      'http://h/api/v1/doctors?ids=ChIJ1,https%3A%2F%2Fwww.example%2Fde%2Faerzte%2Fde%2Fberlin%2Fpraxis%3Fx%3D1%26y,a%2Cb',
    );
  });

  it('encodes cursors and path segments so they stay one value', () => {
    expect(buildUrl('http://h', '/x', { cursor: 'ab+/=.c' })).toBe('http://h/x?cursor=ab%2B%2F%3D.c');
    expect(pathSegment('a/b?c')).toBe('a%2Fb%3Fc');
  });
});

describe('splitIntoBatches', () => {
  it('cuts at 100 entries, in order', () => {
    const ids = Array.from({ length: 250 }, (_, index) => `id${index}`);
    const batches = splitIntoBatches(ids);
    expect(batches.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(ids);
  });

  it('cuts before a batch passes 16,384 characters, commas included', () => {
    const long = 'x'.repeat(4_000);
    const batches = splitIntoBatches([long, long, long, long, long]);
    expect(batches.map((batch) => batch.length)).toEqual([4, 1]);
    for (const batch of batches) expect(batch.join(',').length).toBeLessThanOrEqual(MAX_BATCH_CHARACTERS);
    expect(splitIntoBatches([])).toEqual([]);
  });
});
