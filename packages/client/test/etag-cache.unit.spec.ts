import { describe, expect, it } from 'vitest';
import { EtagCache } from '../src/etag-cache.js';

const answer = (tag: string, body = `{"tag":"${tag}"}`) => ({ etag: `"${tag}"`, body });

describe('EtagCache', () => {
  it('keeps the tag and body per URL, the newest answer replacing an older one', () => {
    const cache = new EtagCache();
    cache.set('/a', answer('1'));
    cache.set('/a', answer('2'));
    expect(cache.get('/a')).toEqual(answer('2'));
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used URL past its entry bound', () => {
    const cache = new EtagCache({ maxEntries: 2 });
    cache.set('/a', answer('a'));
    cache.set('/b', answer('b'));
    cache.get('/a'); // now /b is the least recently used
    cache.set('/c', answer('c'));
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toEqual(answer('a'));
    expect(cache.get('/c')).toEqual(answer('c'));
  });

  it('drops the oldest bodies past its character bound, and never keeps a body larger than the bound', () => {
    const cache = new EtagCache({ maxChars: 10 });
    cache.set('/a', answer('a', '12345'));
    cache.set('/b', answer('b', '12345'));
    cache.set('/c', answer('c', '123'));
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('/huge', answer('h', 'x'.repeat(11)));
    expect(cache.get('/huge')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('keeps nothing with a bound of zero entries, and forgets everything on clear', () => {
    const none = new EtagCache({ maxEntries: 0 });
    none.set('/a', answer('a'));
    expect(none.size).toBe(0);
    const cache = new EtagCache();
    cache.set('/a', answer('a'));
    cache.clear();
    expect(cache.get('/a')).toBeUndefined();
  });
});
