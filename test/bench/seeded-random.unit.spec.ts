import { describe, expect, it } from 'vitest';
import { createRandom } from '../../bench/seeded-random.js';

describe('createRandom', () => {
  it('draws the mulberry32 sequence, so seeded workloads stay the same across runs', () => {
    const random = createRandom(42);
    expect([random.next(), random.next(), random.next()]).toEqual([
      0.6011037519201636, 0.44829055899754167, 0.8524657934904099,
    ]);
  });

  it('keeps int and pick within their bounds', () => {
    const random = createRandom(11);
    for (let draw = 0; draw < 1000; draw += 1) {
      const value = random.int(3, 5);
      expect(value >= 3 && value <= 5 && Number.isInteger(value)).toBe(true);
      expect(['a', 'b']).toContain(random.pick(['a', 'b']));
    }
  });
});
