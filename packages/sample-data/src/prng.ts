/** Lowercase RFC 4648 base32 letters, for generated ids. */
export const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A small seeded PRNG (sfc32) so every choice the generator makes is reproducible from the seed. */
export type Prng = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: ReadonlyArray<T>): T;
  digits(length: number): string;
  /** Characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string;
  /** Lowercase hex digits, eight per draw (content hashes are long and frequent). */
  hex(length: number): string;
};

// splitmix32 spreads nearby seeds (42, 43…) into unrelated sfc32 states.
function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createPrng(seed: number): Prng {
  const mix = splitmix32(seed);
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  // Warm up: the first outputs of sfc32 are weakly mixed.
  for (let i = 0; i < 12; i++) next();

  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: ReadonlyArray<T>): T {
      if (items.length === 0) throw new Error('pick() needs at least one item');
      return items[int(0, items.length - 1)] as T;
    },
    digits(length) {
      let out = '';
      for (let i = 0; i < length; i++) out += String(int(0, 9));
      return out;
    },
    chars(alphabet, length) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet.charAt(int(0, alphabet.length - 1));
      return out;
    },
    hex(length) {
      let out = '';
      while (out.length < length)
        out += Math.floor(next() * 4294967296)
          .toString(16)
          .padStart(8, '0');
      return out.slice(0, length);
    },
  };
}
