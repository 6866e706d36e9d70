import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MIN_SCORE,
  blockingKeys,
  compareQuality,
  findCandidatePairs,
  normalizeName,
  normalizePhones,
  normalizeRecord,
  normalizeStreet,
  pairMetrics,
  planMerges,
  scorePair,
  websiteDomain,
  type MatchInput,
  type RecordQuality,
} from '../src/index.js';

// fast-check prints the seed of a failing run; DUPLICATES_SEED replays it.
const SEED =
  process.env.DUPLICATES_SEED === undefined
    ? Date.now() % 2_147_483_647
    : Number(process.env.DUPLICATES_SEED);
console.log(`duplicates property seed: ${SEED} (DUPLICATES_SEED=${SEED} replays it)`);

const input = (overrides: Partial<MatchInput> & { id: string }): MatchInput => ({
  name: 'Praxis Dr. Jürgen Müller',
  country: 'DE',
  city: 'Berlin',
  street: 'Rilkestraße 36c',
  postalCode: '10115',
  location: { latitude: 52.52, longitude: 13.405 },
  phones: ['030 12345678'],
  website: 'https://www.praxis-mueller.de',
  ...overrides,
});

describe('normalization', () => {
  it('folds titles, practice words, accents and umlaut spellings out of names', () => {
    const variants = ['Praxis Dr. Jürgen Müller', 'Dra. Juergen Mueller', 'PROF. DR. MED. JURGEN MULLER'];
    expect(new Set(variants.map((name) => normalizeName(name, 'Berlin').distinctiveName))).toEqual(
      new Set(['jurgen muller']),
    );
    expect(normalizeName('MVZ Berlin', 'Berlin').distinctiveName).toBe('');
    expect(normalizeName('Dott. Centro Medico Roma', 'Roma').fullName).toBe('centro medico roma');
  });

  it('reads every phone notation of a country as one E.164 number', () => {
    expect(
      normalizePhones(['030 12345678', '+49 30 12345678', '030-12345678', '+493012345678'], 'DE'),
    ).toEqual(['+493012345678']);
    expect(normalizePhones(['not a phone'], 'DE')).toEqual([]);
  });

  it('keeps the registrable domain of a website, none for shared hosts', () => {
    expect(websiteDomain('http://praxis-mueller.de/kontakt')).toBe('praxis-mueller.de');
    expect(websiteDomain('https://www.praxis.co.uk/')).toBe('praxis.co.uk');
    expect(websiteDomain('https://www.facebook.com/praxis')).toBeNull();
    expect(websiteDomain(null)).toBeNull();
  });

  it('writes street type words out', () => {
    const same = (x: string, y: string) => expect(normalizeStreet(x)).toEqual(normalizeStreet(y));
    same('Rilkestr. 36c', 'Rilkestraße 36c');
    same('Rilke Str. 36c', 'Rilkestrasse 36c');
    same('C/ Silvia 12', 'Calle Silvia 12');
    same('V. Igor 3', 'Via Igor 3');
    same('Av. da Liberdade 10', 'Avenida da Liberdade 10');
    same('10 Downing St', '10 Downing Street');
    expect(normalizeStreet('Rilkestr. 36c')).toEqual({ streetName: 'rilkestrasse', houseNumber: '36c' });
  });
});

describe('scoring', () => {
  const original = normalizeRecord(input({ id: 'a' }));

  it('takes another source’s crawl of the same practice for a duplicate', () => {
    const crawl = normalizeRecord(
      input({ id: 'b', name: 'Dra. Juergen Mueller', street: 'Rilkestr. 36c', phones: ['+49 30 12345678'] }),
    );
    const { score, evidence } = scorePair(original, crawl);
    expect(evidence).toMatchObject({ name: 1, phone: 'same', website: 'same', street: 'same', distanceM: 0 });
    expect(score).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
  });

  it('takes a moved practice with the same phone and website for a duplicate', () => {
    const moved = normalizeRecord(
      input({
        id: 'b',
        street: 'Hauptstr. 1',
        postalCode: '10437',
        location: { latitude: 52.54, longitude: 13.41 },
      }),
    );
    expect(scorePair(original, moved).score).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
  });

  it('tells a doctor of the same surname in the same city apart', () => {
    const other = normalizeRecord(
      input({
        id: 'b',
        name: 'Praxis Dr. Anna Müller',
        street: 'Hauptstr. 1',
        phones: ['030 87654321'],
        website: 'https://www.praxis-anna-mueller.de',
      }),
    );
    expect(scorePair(original, other).score).toBeLessThan(DEFAULT_MIN_SCORE);
  });

  it('tells another practice in the same building apart', () => {
    const neighbour = normalizeRecord(
      input({ id: 'b', name: 'Zahnarztpraxis Dr. Schmidt', phones: ['030 87654321'], website: null }),
    );
    expect(scorePair(original, neighbour).score).toBeLessThan(DEFAULT_MIN_SCORE);
  });
});

describe('candidate pairs', () => {
  const name = fc.constantFrom(
    'Praxis Dr. Jürgen Müller',
    'Dra. Juergen Mueller',
    'MVZ Berlin',
    'Hausarztpraxis Schmidt',
    'Dr. Anna Schmitt',
  );
  const phone = fc.constantFrom('030 12345678', '+49 30 12345678', '030 87654321', '089 12345678');
  const records = fc
    .array(
      fc.record({
        name: fc.option(name),
        street: fc.option(fc.constantFrom('Rilkestr. 36c', 'Rilkestraße 36c', 'Hauptstr. 1')),
        postalCode: fc.option(fc.constantFrom('10115', '10437', '80331')),
        phones: fc.array(phone, { maxLength: 2 }),
        website: fc.option(fc.constantFrom('https://www.praxis-mueller.de', 'http://schmidt.de/x')),
        location: fc.option(
          fc.record({
            latitude: fc.double({ min: 52.4, max: 52.6, noNaN: true }),
            longitude: fc.double({ min: 13.3, max: 13.5, noNaN: true }),
          }),
        ),
      }),
      { maxLength: 25 },
    )
    .map((list) => list.map((fields, index) => normalizeRecord(input({ id: `r${index}`, ...fields }))));

  it('scores a pair the same whichever way round', () => {
    fc.assert(
      fc.property(records, (list) => {
        for (const x of list) for (const y of list) expect(scorePair(x, y)).toEqual(scorePair(y, x));
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('never pairs a record with itself, names each pair once, in id order, and at the minimum score or more', () => {
    fc.assert(
      fc.property(records, fc.double({ min: -10, max: 15, noNaN: true }), (list, minScore) => {
        const duplicated = [...list, ...list.slice(0, 3)];
        const { pairs } = findCandidatePairs(duplicated, { minScore });
        const keys = pairs.map((pair) => `${pair.a}|${pair.b}`);
        expect(new Set(keys).size).toBe(keys.length);
        for (const pair of pairs) {
          expect(pair.a < pair.b).toBe(true);
          expect(pair.score).toBeGreaterThanOrEqual(minScore);
        }
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('finds every pair above the minimum that shares a block (same as comparing all pairs)', () => {
    fc.assert(
      fc.property(records, (list) => {
        const found = new Set(
          findCandidatePairs(list, { minScore: DEFAULT_MIN_SCORE }).pairs.map((p) => `${p.a}|${p.b}`),
        );
        for (let i = 0; i < list.length; i++)
          for (let j = i + 1; j < list.length; j++) {
            const [x, y] = [list[i], list[j]] as [(typeof list)[number], (typeof list)[number]];
            const sharesBlock = blockingKeys(x).some((key) => blockingKeys(y).includes(key));
            const [a, b] = x.id < y.id ? [x.id, y.id] : [y.id, x.id];
            expect(found.has(`${a}|${b}`)).toBe(sharesBlock && scorePair(x, y).score >= DEFAULT_MIN_SCORE);
          }
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  it('keeps the work near-linear: comparisons grow with the records, not their square', () => {
    // Many records in one city, each its own practice: a block never exceeds the cap.
    const many = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        normalizeRecord(
          input({
            id: `r${index}`,
            name: `Praxis Dr. ${String.fromCharCode(65 + (index % 26))}${index.toString(36)}son`,
            phones: [],
            website: null,
          }),
        ),
      );
    const small = findCandidatePairs(many(1_000), { maxBlockSize: 40 });
    const large = findCandidatePairs(many(8_000), { maxBlockSize: 40 });
    expect(large.comparisons).toBeLessThanOrEqual(8_000 * 40);
    expect(large.comparisons / Math.max(1, small.comparisons)).toBeLessThan(8 * 2);
  });
});

describe('survivor rule and metrics', () => {
  const quality = (id: string, overrides: Partial<RecordQuality> = {}): RecordQuality => ({
    id,
    verified: false,
    filledFields: 5,
    reviewCount: 10,
    ...overrides,
  });

  it('prefers verified, then fuller, then more reviewed records, then the smaller id', () => {
    const ranked = [
      quality('e'),
      quality('d', { reviewCount: 50 }),
      quality('c', { filledFields: 8 }),
      quality('b', { verified: true, filledFields: 1 }),
      quality('a'),
    ].sort(compareQuality);
    expect(ranked.map((record) => record.id)).toEqual(['b', 'c', 'd', 'a', 'e']);
  });

  it('merges each group straight into its survivor: no chain, no loop', () => {
    const pairs = [
      { a: 'a', b: 'b', score: 9, evidence: {} as never },
      { a: 'b', b: 'c', score: 7, evidence: {} as never },
      { a: 'x', b: 'y', score: 8, evidence: {} as never },
    ];
    const merges = planMerges(
      pairs,
      new Map([
        ['c', quality('c', { verified: true })],
        ['y', quality('y')],
      ]),
    );
    expect(merges).toEqual([
      { placeId: 'a', into: 'c', score: 9 },
      { placeId: 'b', into: 'c', score: 9 },
      { placeId: 'x', into: 'y', score: 8 },
    ]);
  });

  it('counts precision and recall of pairs against clusters', () => {
    const clusters = new Map([
      ['a', '1'],
      ['b', '1'],
      ['c', '1'],
      ['d', '2'],
      ['e', '3'],
    ]);
    const metrics = pairMetrics(
      [
        { a: 'a', b: 'b' },
        { a: 'b', b: 'a' },
        { a: 'd', b: 'e' },
      ],
      clusters,
    );
    expect(metrics).toMatchObject({ proposed: 2, truePairs: 3, correct: 1, precision: 0.5 });
    expect(metrics.recall).toBeCloseTo(1 / 3);
  });
});
