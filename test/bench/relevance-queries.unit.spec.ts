import { describe, expect, it } from 'vitest';
import { foldText, specialtyVocabularyPage, type PageLanguage } from '@directory/domain';
import {
  COUNTRY_LANGUAGE,
  FRAGMENT_MAX_HOLDERS,
  QUERY_CLASSES,
  TYPO_MIN_LETTERS,
  buildQuerySet,
  injectTypo,
  nameMentions,
  wordsOf,
  type JudgedPlace,
} from '../../bench/relevance-queries.js';
import { createRandom } from '../../bench/seeded-random.js';

/** Damerau–Levenshtein distance (optimal string alignment) between two code-point strings. */
function editDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[x.length] as number[])[y.length] as number;
}

const SURNAMES = [
  'Weber',
  'Schneider',
  'Fischer',
  'Wagner',
  'Becker',
  'Hoffmann',
  'Schulz',
  'Koch',
  'Richter',
  'Klein',
];
const DE_CITIES = ['Berlin', 'Hamburg', 'Köln'];
const ES_CITIES = ['Madrid', 'Sevilla', 'Málaga'];

/** A small de and es dataset: dental and general practices, some names shared, some surnames repeated. */
function sampleDataset(): JudgedPlace[] {
  const places: JudgedPlace[] = [];
  for (let n = 0; n < 60; n++) {
    const surname = SURNAMES[n % SURNAMES.length] as string;
    const other = SURNAMES[(n * 3 + 1) % SURNAMES.length] as string;
    const dental = n % 3 === 0;
    places.push({
      id: `de_${String(n).padStart(3, '0')}`,
      country: 'de',
      name: dental ? `Zahnarztpraxis Dr. ${surname}` : `Gemeinschaftspraxis ${surname} & ${other}${n}`,
      legalName: n % 4 === 0 ? `Dr. med. Anna ${other}` : null,
      city: DE_CITIES[n % DE_CITIES.length] as string,
      codes: dental ? ['dentistry', 'dental-implants'] : ['general-practice', 'dermatology'],
      labels: dental ? ['Zahnarzt', 'Implantologie'] : ['Hausarzt', 'Dermatologie'],
    });
    places.push({
      id: `es_${String(n).padStart(3, '0')}`,
      country: 'es',
      name: dental ? `Clínica Dental ${surname}` : `Consultorio Dr. Mariano ${surname} ${other}${n}`,
      legalName: null,
      city: ES_CITIES[n % ES_CITIES.length] as string,
      codes: dental ? ['dentistry'] : ['pediatrics'],
      labels: dental ? ['Dentista'] : ['Pediatra', 'Pediatría'],
    });
  }
  return places;
}

describe('injectTypo', () => {
  it('makes exactly one edit in one word of at least five letters, never at its first letter', () => {
    const query = 'Zahnarztpraxis Dr. Müller Berlin';
    for (let seed = 0; seed < 500; seed++) {
      const typed = injectTypo(query, createRandom(seed));
      expect(typed).not.toBeNull();
      const before = query.split(' ');
      const after = (typed as string).split(' ');
      expect(after).toHaveLength(before.length);
      const changed = before.flatMap((word, at) => (word === after[at] ? [] : [at]));
      expect(changed).toHaveLength(1);
      const at = changed[0] as number;
      const word = before[at] as string;
      const typo = after[at] as string;
      expect(Array.from(word).length).toBeGreaterThanOrEqual(TYPO_MIN_LETTERS);
      expect(typo[0]).toBe(word[0]);
      expect(editDistance(word, typo)).toBe(1);
      // Folding must not undo it: the search folds accents and case away.
      expect(foldText(typo)).not.toBe(foldText(word));
    }
  });

  it('leaves a query without a word long enough alone', () => {
    expect(injectTypo('MVZ Ulm', createRandom(1))).toBeNull();
    expect(injectTypo('Dr. med. Koch', createRandom(1))).toBeNull();
  });

  it('is the same for the same seed', () => {
    expect(injectTypo('Dentista Barcelona', createRandom(7))).toBe(
      injectTypo('Dentista Barcelona', createRandom(7)),
    );
  });
});

describe('nameMentions', () => {
  it('finds a specialty in a word, a run of words or the head of a German compound', () => {
    expect(nameMentions('Zahnarztpraxis Dr. Weber', 'dentistry')).toBe(true);
    expect(nameMentions('Kinderarztpraxis am Markt', 'pediatrics')).toBe(true);
    expect(nameMentions('Centro de Medicina General Sur', 'general-practice')).toBe(true);
    expect(nameMentions('Praxis Dr. Weber', 'dentistry')).toBe(false);
    expect(nameMentions('Zahnarztpraxis Dr. Weber', 'pediatrics')).toBe(false);
  });
});

describe('buildQuerySet', () => {
  const places = sampleDataset();
  const queries = buildQuerySet(places, 42, 5);
  const byId = new Map(places.map((place) => [place.id, place]));

  it('draws the wanted number of every class for every dataset with places, and only those', () => {
    for (const country of ['de', 'es']) {
      for (const queryClass of QUERY_CLASSES) {
        const drawn = queries.filter((query) => query.country === country && query.queryClass === queryClass);
        expect(drawn, `${country} ${queryClass}`).toHaveLength(5);
        expect(new Set(drawn.map((query) => query.text)).size).toBe(5);
      }
    }
    expect(queries.every((query) => query.country in COUNTRY_LANGUAGE)).toBe(true);
    expect(queries.some((query) => query.country === 'it')).toBe(false);
  });

  it('joins two neighbouring words of a full name for run-together, judged as that name', () => {
    const squeezed = (text: string) => wordsOf(text).join('');
    for (const query of queries.filter((q) => q.queryClass === 'run-together')) {
      const meant = [...query.judgments]
        .filter(([, grade]) => grade === 2)
        .map(([id]) => byId.get(id)?.name ?? '');
      expect(meant.map(squeezed), query.text).toContain(squeezed(query.text));
      for (const name of meant) expect(wordsOf(name)).toHaveLength(wordsOf(query.text).length + 1);
    }
  });

  it('is the same for the same seed whatever the order of the places, and differs for another seed', () => {
    const again = buildQuerySet([...places].reverse(), 42, 5);
    expect(again.map((query) => [query.queryClass, query.text, [...query.judgments]])).toEqual(
      queries.map((query) => [query.queryClass, query.text, [...query.judgments]]),
    );
    expect(buildQuerySet(places, 43, 5).map((query) => query.text)).not.toEqual(
      queries.map((query) => query.text),
    );
  });

  it('judges a full name: the places of that name 2, others whose names hold every word 1', () => {
    for (const query of queries.filter((q) => q.queryClass === 'name')) {
      const words = wordsOf(query.text);
      for (const place of places.filter((p) => p.country === query.country)) {
        const sameName = wordsOf(place.name).join(' ') === words.join(' ');
        const holdsAll = words.every((word) =>
          wordsOf(`${place.name} ${place.legalName ?? ''}`).includes(word),
        );
        expect(query.judgments.get(place.id)).toBe(sameName ? 2 : holdsAll ? 1 : undefined);
      }
    }
  });

  it('draws distinctive fragments: part of a name, held by few names; the names holding every word 2', () => {
    for (const query of queries.filter((q) => q.queryClass === 'name-fragment')) {
      expect(query.judgments.size).toBeLessThanOrEqual(FRAGMENT_MAX_HOLDERS);
      const words = wordsOf(query.text);
      for (const place of places.filter((p) => p.country === query.country)) {
        const inName = words.every((word) => wordsOf(place.name).includes(word));
        const inLegalName = words.every((word) =>
          wordsOf(`${place.name} ${place.legalName ?? ''}`).includes(word),
        );
        expect(query.judgments.get(place.id)).toBe(inName ? 2 : inLegalName ? 1 : undefined);
      }
      const longer = [...query.judgments.keys()].some(
        (id) => wordsOf(byId.get(id)?.name ?? '').length > words.length,
      );
      expect(longer).toBe(true);
    }
  });

  it('judges a specialty and city: the places of that city with the code, 2 when the name says it too', () => {
    const dentistsOf = (country: string, city: string) =>
      places.filter((p) => p.country === country && p.city === city && p.codes.includes('dentistry'));
    const query = queries.find((q) => q.queryClass === 'specialty-city' && q.text === 'Zahnarzt Berlin');
    const expected = new Map(dentistsOf('de', 'Berlin').map((place) => [place.id, 2]));
    if (query) expect(query.judgments).toEqual(expected);
    for (const q of queries.filter(
      (q) => q.queryClass.startsWith('specialty-city') || q.queryClass.startsWith('cross-language'),
    )) {
      expect(q.judgments.size).toBeGreaterThan(0);
      const cities = new Set([...q.judgments.keys()].map((id) => byId.get(id)?.city));
      expect(cities.size).toBe(1);
      if (!q.queryClass.endsWith('-typo')) expect(q.text.endsWith(` ${[...cities][0]}`)).toBe(true);
    }
  });

  it('names the specialty of a cross-language query in another page language than the dataset publishes', () => {
    const own = new Set(places.flatMap((place) => place.labels.map((label) => foldText(label))));
    for (const query of queries.filter((q) => q.queryClass === 'cross-language-specialty-city')) {
      const city = byId.get([...query.judgments.keys()][0] as string)?.city as string;
      const label = query.text.slice(0, query.text.length - city.length - 1);
      expect(query.text.endsWith(` ${city}`)).toBe(true);
      expect(own.has(foldText(label))).toBe(false);
      const language = COUNTRY_LANGUAGE[query.country] as PageLanguage;
      const ownLabels = specialtyVocabularyPage(language).specialties.map((entry) => foldText(entry.label));
      expect(ownLabels).not.toContain(foldText(label));
    }
  });

  it('gives a typo query the judgments of the query it was made from, and exactly one edit', () => {
    for (const query of queries.filter((q) => q.queryClass.endsWith('-typo'))) {
      const clean = queries.find(
        (q) =>
          q.country === query.country &&
          q.queryClass === query.queryClass.replace('-typo', '') &&
          editDistance(q.text, query.text) === 1,
      );
      // Drawn on their own, a typo query's clean twin is not always in the set; when it is, it agrees.
      if (clean) expect(query.judgments).toEqual(clean.judgments);
      expect(query.judgments.size).toBeGreaterThan(0);
    }
  });
});
