// The data and requests of `npm run bench:api`: served records spread over four datasets' cities, and
// the requests drawn from them (uniform, Zipf, relevance or faceted mixes, and the changes feed's
// consumers). Every draw comes from seeded generators, so the same options give the same records and
// requests in every run.
import {
  FACET_LIMIT_DEFAULT,
  FACET_NAMES,
  initialPlaceState,
  insuranceCodesOf,
  type FacetName,
  type FacetRequest,
  type PlaceState,
  type SearchFilters,
  type SortOrder,
} from '@directory/domain';
import { citiesOf } from '@directory/sample-data';
import { createRandom } from './seeded-random.js';

export const LIVE = ['de', 'es', 'it', 'pt'] as const;
export type Live = (typeof LIVE)[number];
const ISO: Record<Live, string> = { de: 'DE', es: 'ES', it: 'IT', pt: 'PT' };
const PREFIXES: Record<Live, string[]> = {
  de: ['Praxis Dr.', 'Zahnarztpraxis', 'Hausarztpraxis', 'MVZ', 'Kinderarztpraxis'],
  es: ['Clínica', 'Consultorio Dr.', 'Centro Médico', 'Clínica Dental'],
  it: ['Studio Medico', 'Poliambulatorio', 'Studio Dentistico', 'Dott.'],
  pt: ['Clínica', 'Consultório Dr.', 'Centro de Saúde', 'Clínica Dentária'],
};
const SURNAMES = [
  'Müller',
  'Schmidt',
  'García',
  'Fernández',
  'Rossi',
  'Bianchi',
  'Silva',
  'Santos',
  'Weber',
  'López',
  'Ricci',
  'Costa',
  'Becker',
  'Martín',
  'Romano',
  'Pereira',
  'Wagner',
  'Sánchez',
  'Colombo',
  'Oliveira',
];
const SPECIALTIES = [
  'Allgemeinmedizin',
  'Cardiología',
  'Pediatria',
  'Dermatologia',
  'Orthopädie',
  'Ginecología',
  'Oftalmologia',
  'Odontologia',
];
const PHONES: Record<Live, string> = {
  de: '+49 1512 3456789',
  es: '+34 612 345 678',
  it: '+39 312 345 6789',
  pt: '+351 912 345 678',
};

const random = createRandom(42).next;
const pick = <T>(items: ReadonlyArray<T>): T => items[Math.floor(random() * items.length)] as T;
const citiesByCountry: Record<Live, ReturnType<typeof citiesOf>['cities']> = {
  de: citiesOf('DE').cities.slice(0, 40),
  es: citiesOf('ES').cities.slice(0, 40),
  it: citiesOf('IT').cities.slice(0, 40),
  pt: citiesOf('PT').cities.slice(0, 40),
};

const CRAWLED_AT = '2026-01-01T00:00:00Z';

export function servedPlace(index: number): PlaceState {
  const country = LIVE[index % LIVE.length] as Live;
  const city = pick(citiesByCountry[country]);
  const name = `${pick(PREFIXES[country])} ${pick(SURNAMES)}`;
  const mobile = random() < 0.5;
  // Drawn here, in the order it always was, so the rest of the data stays as it was.
  const verified = random() < 0.3;
  return {
    ...initialPlaceState(`bench-${index.toString(36)}`),
    version: 1,
    // One crawl, published and (maybe) verified at once: the provenance of a one-crawl stream.
    observedAt: CRAWLED_AT,
    updatedAt: CRAWLED_AT,
    verifiedAt: verified ? CRAWLED_AT : null,
    published: true,
    verified,
    publication: { country, citySlug: city.slug, profileSlug: `${index.toString(36)}-practice` },
    observed: {
      name,
      legalName: null,
      address: { street: null, city: city.name, state: null, postalCode: null, country: ISO[country] },
      location: { latitude: city.latitude + jitter(index, 1), longitude: city.longitude + jitter(index, 2) },
      phone: mobile ? PHONES[country] : null,
      phoneType: mobile ? 'mobile' : null,
      additionalPhones: [],
      email: null,
      website: null,
      googleMapsUrl: null,
      primaryType: 'Doctor',
      specialties: [pick(SPECIALTIES), pick(SPECIALTIES)],
      rating: Math.round(random() * 50) / 10,
      reviewCount: Math.floor(random() * 300),
      whatsappEligible: mobile,
      workingHours: index % 4 === 0 ? null : weekdayHours(country, index),
      ...patientAttributes(country, index),
    },
  };
}

// The weekdays in each dataset's language, as its sources write them.
const WEEKDAYS: Record<Live, ReadonlyArray<string>> = {
  de: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag'],
  es: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes'],
  it: ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì'],
  pt: ['segunda-feira', 'terça-feira', 'quarta-feira', 'quinta-feira', 'sexta-feira'],
};
const NATIVE_LANGUAGE: Record<Live, string> = { de: 'de', es: 'es', it: 'it', pt: 'pt' };

/** A share in [0, 1) of `index` and `salt`, without drawing from `random` (the other draws stay as they were). */
function share(index: number, salt: number): number {
  return (((index + 1) * 2_654_435_761 + salt * 40_503) >>> 0) / 2 ** 32;
}

/** Weekday opening hours (08:00–13:00, half of them also 15:00–19:00), so openNow has records to count. */
function weekdayHours(country: Live, index: number): Record<string, Array<{ open: string; close: string }>> {
  const afternoon = share(index, 3) < 0.5;
  const periods = [
    { open: '08:00', close: '13:00' },
    ...(afternoon ? [{ open: '15:00', close: '19:00' }] : []),
  ];
  return Object.fromEntries(WEEKDAYS[country].map((day) => [day, periods]));
}

/** Patient attributes as crawls give them: often unknown, the dataset's language first. */
function patientAttributes(country: Live, index: number) {
  const known = (salt: number, unknown: number, yes: number) => {
    const value = share(index, salt);
    return value < unknown ? null : value < unknown + yes;
  };
  const english = share(index, 4) < 0.4;
  const codes = insuranceCodesOf(country);
  return {
    languages: english ? [NATIVE_LANGUAGE[country], 'en'] : [NATIVE_LANGUAGE[country]],
    acceptingNewPatients: known(5, 0.4, 0.4),
    wheelchairAccessible: known(6, 0.5, 0.35),
    insurance: codes.filter((_, position) => share(index, 7 + position) < 0.6),
  };
}

// Spreads a city's records over about ±5 km, deterministically, without drawing from `random` (so the
// rest of the data and workload stays as it was).
function jitter(index: number, salt: number): number {
  return ((((index * 7919 + salt * 104_729) % 1000) + 1000) % 1000) / 10_000 - 0.05;
}

export type Task =
  | {
      kind: 'search';
      filters: SearchFilters;
      limit: number;
      pages: number;
      sort?: SortOrder;
      count?: boolean;
      /** Asked on every page, as a client that keeps its query string and adds the cursor. */
      facets?: FacetRequest;
    }
  | { kind: 'get'; id: string };
export type SearchTask = Extract<Task, { kind: 'search' }>;

export function workload(count: number, records: number): Task[] {
  const tasks: Task[] = [];
  let requests = 0;
  while (requests < count) {
    if (random() < 0.3) {
      tasks.push({ kind: 'get', id: `bench-${Math.floor(random() * records).toString(36)}` });
      requests += 1;
      continue;
    }
    const filters = uniformFilters(random);
    const pages = 1 + Math.floor(random() * 5);
    tasks.push({ kind: 'search', filters, limit: pick([10, 25, 50]), pages });
    requests += pages;
  }
  return tasks;
}

/** A uniform-mix search's filters, drawn from `next` in the order the uniform mix always drew them. */
function uniformFilters(next: () => number): SearchFilters {
  const choose = <T>(items: ReadonlyArray<T>): T => items[Math.floor(next() * items.length)] as T;
  const country = choose(LIVE);
  const filters: SearchFilters = { country };
  if (next() < 0.5) filters.city = choose(citiesByCountry[country].slice(0, 10)).slug;
  if (next() < 0.25) filters.whatsapp = next() < 0.5;
  if (next() < 0.25) filters.verified = next() < 0.5;
  if (next() < 0.25) filters.q = choose(SURNAMES).slice(0, 4);
  if (next() < 0.15) {
    const city = choose(citiesByCountry[country].slice(0, 10));
    filters.near = { lat: city.latitude, lon: city.longitude };
    if (next() < 0.5) filters.radius = choose([2_000, 10_000, 50_000]);
  }
  return filters;
}

/**
 * Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^exponent (Zipf): rank 0 is the most
 * popular. Its own random source, so the uniform mix (and the data) draw exactly what they always drew.
 */
function zipf(n: number, exponent = 1, draw = zipfRandom): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < n; rank += 1) {
    total += 1 / (rank + 1) ** exponent;
    cumulative.push(total);
  }
  return () => {
    const target = draw() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
const zipfRandom = createRandom(15).next;

// Most popular first: the countries, the q terms people type, the page sizes clients ask for.
const Q_TERMS = [...SURNAMES.map((surname) => surname.slice(0, 4)), ...SPECIALTIES.map((s) => s.slice(0, 5))];
const LIMITS = [10, 25, 50];

export function zipfWorkload(count: number, records: number): Task[] {
  const country = zipf(LIVE.length);
  const city = zipf(40);
  const term = zipf(Q_TERMS.length);
  const depth = zipf(5);
  const limit = zipf(LIMITS.length, 2);
  const record = zipf(records);
  const tasks: Task[] = [];
  let requests = 0;
  while (requests < count) {
    if (zipfRandom() < 0.3) {
      // Popular profiles: record ranks spread over the datasets as the index spreads them.
      tasks.push({ kind: 'get', id: `bench-${record().toString(36)}` });
      requests += 1;
      continue;
    }
    const live = LIVE[country()] as Live;
    const filters: SearchFilters = { country: live };
    if (zipfRandom() < 0.7) filters.city = (citiesByCountry[live][city()] as { slug: string }).slug;
    if (zipfRandom() < 0.3) filters.q = Q_TERMS[term()];
    if (zipfRandom() < 0.1) filters.verified = true;
    if (zipfRandom() < 0.05) filters.whatsapp = true;
    if (zipfRandom() < 0.1) {
      const near = citiesByCountry[live][city()] as { latitude: number; longitude: number };
      filters.near = { lat: near.latitude, lon: near.longitude };
    }
    const pages = 1 + depth();
    tasks.push({ kind: 'search', filters, limit: LIMITS[limit()] as number, pages });
    requests += pages;
  }
  return tasks;
}

/** What people type into a search box over these records: names, types, cities and typos of them. */
const RELEVANCE_TERMS = [
  ...SURNAMES.map((surname) => surname.toLowerCase()),
  ...SPECIALTIES,
  'zahnarzt',
  'kinderarzt',
  'hausarzt',
  'dentista',
  'dentist',
  'pediatra',
  'clinica dental',
  'studio medico',
  'centro medico',
  'mueller',
  'shmidt',
  'garcai',
  'fernandes',
  'olivera',
  'dermatolgia',
  'cardiologia',
];
const relevanceRandom = createRandom(16).next;

/**
 * Relevance searches (`sort=relevance`): a term from RELEVANCE_TERMS (a third of them with the city's
 * name after it, some as typed so far), in a city or near a point now and then, a page or two deep.
 * Its own random source, so the other mixes draw what they always drew.
 */
export function relevanceWorkload(count: number): Task[] {
  const tasks: Task[] = [];
  const draw = <T>(items: ReadonlyArray<T>): T => items[Math.floor(relevanceRandom() * items.length)] as T;
  for (let requests = 0; requests < count;) {
    const country = draw(LIVE);
    const city = draw(citiesByCountry[country].slice(0, 10));
    let q = draw(RELEVANCE_TERMS);
    if (relevanceRandom() < 0.3) q = `${q} ${city.name}`;
    if (relevanceRandom() < 0.2) q = q.slice(0, Math.max(3, q.length - 2));
    const filters: SearchFilters = { country, q };
    if (relevanceRandom() < 0.2) filters.city = city.slug;
    if (relevanceRandom() < 0.15) filters.near = { lat: city.latitude, lon: city.longitude };
    const pages = relevanceRandom() < 0.8 ? 1 : 2;
    tasks.push({ kind: 'search', filters, limit: draw([10, 25]), pages, sort: 'relevance' });
    requests += pages;
  }
  return tasks;
}

const facetsRandom = createRandom(17).next;
/** `facetLimit`s asked: mostly the default. */
const FACET_LIMITS = [FACET_LIMIT_DEFAULT, FACET_LIMIT_DEFAULT, 5, 20];

/**
 * Faceted searches (`--mix facets`): the uniform mix's searches (its filters, page sizes and depths; no
 * gets), each asking for 1–4 distinct facets of any kind. Its own random source by default, so the other
 * mixes draw what they always drew; `withoutFacets` gives the same searches without them. The records
 * carry patient attributes and weekday hours (`servedPlace`), so every facet has values to count.
 */
export function facetsWorkload(count: number, next: () => number = facetsRandom): SearchTask[] {
  const choose = <T>(items: ReadonlyArray<T>): T => items[Math.floor(next() * items.length)] as T;
  const tasks: SearchTask[] = [];
  for (let requests = 0; requests < count;) {
    const filters = uniformFilters(next);
    const facets = { names: facetNames(1 + Math.floor(next() * 4), next), limit: choose(FACET_LIMITS) };
    const pages = 1 + Math.floor(next() * 5);
    tasks.push({ kind: 'search', filters, limit: choose([10, 25, 50]), pages, facets });
    requests += pages;
  }
  return tasks;
}

/** `count` distinct facet names in a random order (a partial Fisher–Yates shuffle). */
function facetNames(count: number, next: () => number): FacetName[] {
  const names = [...FACET_NAMES];
  for (let index = 0; index < count; index += 1) {
    const other = index + Math.floor(next() * (names.length - index));
    [names[index], names[other]] = [names[other] as FacetName, names[index] as FacetName];
  }
  return names.slice(0, count);
}

/** The same requests, searches without their facets: what the facets cost is measured against. */
export function withoutFacets(tasks: ReadonlyArray<Task>): Task[] {
  return tasks.map((task) => {
    if (task.kind !== 'search') return task;
    const { facets: _facets, ...search } = task;
    return search;
  });
}

export type FeedTask = { country: Live; limit: number; pages: number };

/**
 * Feed consumers: each reads one dataset's feed from a position (the start, or a cursor a few pages
 * in) for a few pages of a typical size.
 */
export function feedWorkload(requestsPerPhase: number): FeedTask[] {
  const tasks: FeedTask[] = [];
  for (let requests = 0; requests < Math.max(200, requestsPerPhase / 10);) {
    const task = { country: pick(LIVE), limit: pick([100, 500, 1000]), pages: 1 + Math.floor(random() * 5) };
    tasks.push(task);
    requests += task.pages;
  }
  return tasks;
}
