import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../src/shared/bounded-memo.js';

describe('boundedMemo', () => {
  it('computes each remembered text once, undefined results included', () => {
    const asked: string[] = [];
    const weekday = boundedMemo((text) => {
      asked.push(text);
      return text === 'mon' ? 1 : undefined;
    }, 10);
    expect([weekday('mon'), weekday('holiday'), weekday('mon'), weekday('holiday')]).toEqual([
      1,
      undefined,
      1,
      undefined,
    ]);
    expect(asked).toEqual(['mon', 'holiday']);
  });

  it('keeps at most `capacity` texts and still answers every other one, computed each time', () => {
    const asked: string[] = [];
    const length = boundedMemo((text) => {
      asked.push(text);
      return text.length;
    }, 2);
    for (const text of ['a', 'bb', 'ccc', 'ccc', 'a', 'bb']) expect(length(text)).toBe(text.length);
    expect(asked).toEqual(['a', 'bb', 'ccc', 'ccc']);
  });
});
