import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doctor } from '@directory/domain';
import { placeState } from '@directory/testing';
import { createKeyedApi, type KeyedApi } from './support/api-harness.js';

type Page = { doctors: Doctor[] };
type Suggestion = { type: string; citySlug?: string; name?: string };

type Where = { country?: 'de' | 'es' | 'it' | 'pt'; city: string; citySlug: string };
const MUENCHEN: Where = { city: 'München', citySlug: 'muenchen' };
const KOELN: Where = { city: 'Köln', citySlug: 'koeln' };
const BERLIN: Where = { city: 'Berlin', citySlug: 'berlin' };
const SEVILLA: Where = { country: 'es', city: 'Sevilla', citySlug: 'sevilla' };
const SAN_SEBASTIAN: Where = { country: 'es', city: 'San Sebastián', citySlug: 'san-sebastian' };
const ROMA: Where = { country: 'it', city: 'Roma', citySlug: 'roma' };
const LISBOA: Where = { country: 'pt', city: 'Lisboa', citySlug: 'lisboa' };

const place = (id: string, name: string, primaryType: string, where: Where) =>
  placeState({ id, name, primaryType, ...where });

// Dentists in München among more dentists in Berlin, so a name that did not reach the city would
// find Berlin's or none; one city in each live dataset for its other names.
const PLACES = [
  place('pn-muc-1', 'Zahnarztpraxis Dr. Huber', 'Zahnarzt', MUENCHEN),
  place('pn-muc-2', 'Praxis Anna Maier', 'Zahnarzt', MUENCHEN),
  place('pn-muc-kinder', 'Kinderarztpraxis Sonnenschein', 'Kinderarzt', MUENCHEN),
  ...Array.from({ length: 12 }, (_, index) =>
    place(`pn-ber-${index}`, `Zahnarztpraxis Berlin ${index}`, 'Zahnarzt', BERLIN),
  ),
  place('pn-koeln', 'Praxis am Dom', 'Zahnarzt', KOELN),
  place('pn-sevilla', 'Clínica Dental Giralda', 'Dentista', SEVILLA),
  place('pn-donostia', 'Clínica Dental Kontxa', 'Dentista', SAN_SEBASTIAN),
  place('pn-roma', 'Studio Dentistico Colosseo', 'Dentista', ROMA),
  place('pn-lisboa', 'Clínica Dentária Alfama', 'Dentista', LISBOA),
];

describe('place names in every language (API 1.4)', () => {
  let api: KeyedApi;

  beforeAll(async () => {
    api = await createKeyedApi('api-place-names', PLACES);
  });
  afterAll(() => api.close());

  const ids = async (query: string) =>
    (await api.getOk<Page>(`/api/v1/doctors?${query}`)).doctors.map((doctor) => doctor.id).sort();
  const suggestions = async (query: string) =>
    (await api.getOk<{ suggestions: Suggestion[] }>(`/api/v1/suggest?${query}`)).suggestions;

  it('suggests the city under its canonical slug for another name, in the top five', async () => {
    const muenchen = { type: 'city', citySlug: 'muenchen', name: 'München' };
    for (const typed of ['munich', 'Múnich', 'monaco di bav', 'muni', 'Muenchen']) {
      const found = await suggestions(`country=de&limit=5&q=${encodeURIComponent(typed)}`);
      expect(found, typed).toContainEqual(muenchen);
    }
    expect(await suggestions('country=de&limit=5&q=cologne')).toContainEqual({
      type: 'city',
      citySlug: 'koeln',
      name: 'Köln',
    });
    expect(await suggestions('country=it&q=rome')).toContainEqual({
      type: 'city',
      citySlug: 'roma',
      name: 'Roma',
    });
    expect(await suggestions('country=es&q=donostia')).toContainEqual({
      type: 'city',
      citySlug: 'san-sebastian',
      name: 'San Sebastián',
    });
    // Per dataset: Spain has no München.
    expect(await suggestions('country=es&q=munich')).toEqual([]);
  });

  it('finds the city of another name in q under relevance, in any page language', async () => {
    const muenchenDentists = ['pn-muc-1', 'pn-muc-2'];
    expect(await ids('country=de&sort=relevance&q=zahnarzt%20munich')).toEqual(muenchenDentists);
    expect(await ids('country=de&sort=relevance&q=dentist%20munich')).toEqual(muenchenDentists);
    // A name of several words: each of them reaches the city.
    expect(await ids('country=de&sort=relevance&q=monaco%20di%20baviera')).toEqual(
      await ids('country=de&city=muenchen'),
    );
    expect(await ids('country=de&sort=relevance&q=zahnarzt%20cologne')).toEqual(['pn-koeln']);
    expect(await ids('country=es&sort=relevance&q=dentist%20seville')).toEqual(['pn-sevilla']);
    expect(await ids('country=es&sort=relevance&q=dentista%20donostia')).toEqual(['pn-donostia']);
    expect(await ids('country=it&sort=relevance&q=dentist%20rome')).toEqual(['pn-roma']);
    expect(await ids('country=pt&sort=relevance&q=dentist%20lisbon')).toEqual(['pn-lisboa']);
    // Literal q (no sort=relevance) stays literal, as 1.1 answers it.
    expect(await ids('country=de&q=munich')).toEqual([]);
  });

  it('answers a city slug of another name with the records of the city', async () => {
    const muenchen = await ids('country=de&city=muenchen');
    expect(muenchen).toEqual(['pn-muc-1', 'pn-muc-2', 'pn-muc-kinder']);
    expect(await ids('country=de&city=munich')).toEqual(muenchen);
    expect(await ids('country=de&city=monaco-di-baviera')).toEqual(muenchen);
    expect(await ids('country=de&city=cologne')).toEqual(['pn-koeln']);
    expect(await ids('country=es&city=donostia')).toEqual(['pn-donostia']);
    expect(await ids('country=it&city=rome')).toEqual(['pn-roma']);
    expect(await ids('country=pt&city=lisbon')).toEqual(['pn-lisboa']);
    // Per dataset, and with the other filters as ever.
    expect(await ids('country=es&city=munich')).toEqual([]);
    expect(await ids('country=de&city=munich&q=kinder')).toEqual(['pn-muc-kinder']);
  });
});
