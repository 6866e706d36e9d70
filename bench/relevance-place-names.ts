// The place-name queries of `npm run bench:relevance`: the other names of the largest served cities of
// each live dataset (place-names.ts: exonyms in the page languages, co-official and historical names),
// each asked of suggest (found: the city among the first SUGGEST_CUTOFF suggestions) and of `q` with
// `sort=relevance` (found: a record of the city among the first CUTOFF). Pure: the API calls are the
// bench's.
import { LIVE_COUNTRY_CODES, cityNameGroupsOf, type CountryCode } from '@directory/domain';

/** The largest served cities of each dataset whose other names are asked. */
export const PLACE_NAME_CITIES = 50;
/** Suggest finds the city when it is among this many suggestions. */
export const SUGGEST_CUTOFF = 5;

export type PlaceNameQuery = {
  country: CountryCode;
  /** The slug the dataset's records carry. */
  citySlug: string;
  /** Every slug of the city (any of them in suggest counts). */
  slugs: ReadonlyArray<string>;
  /** Another name of the city, as folded words joined by spaces. */
  text: string;
};

/**
 * For each live dataset, its PLACE_NAME_CITIES cities with the most served records (ties by slug), and
 * for each that has other names, one query per name that is not the slug's own spelling.
 */
export function placeNameQueries(
  records: ReadonlyArray<{ country: string; citySlug: string }>,
): PlaceNameQuery[] {
  const queries: PlaceNameQuery[] = [];
  for (const country of LIVE_COUNTRY_CODES) {
    const counts = new Map<string, number>();
    for (const record of records) {
      if (record.country === country) counts.set(record.citySlug, (counts.get(record.citySlug) ?? 0) + 1);
    }
    const largest = [...counts]
      .sort(([a, aCount], [b, bCount]) => bCount - aCount || (a < b ? -1 : 1))
      .slice(0, PLACE_NAME_CITIES);
    const groups = cityNameGroupsOf(country);
    for (const [citySlug] of largest) {
      const group = groups.find((candidate) => candidate.slugs.includes(citySlug));
      if (group === undefined) continue;
      for (const words of group.names) {
        if (words.join('-') === citySlug) continue;
        queries.push({ country, citySlug, slugs: group.slugs, text: words.join(' ') });
      }
    }
  }
  return queries;
}

export type PlaceNameResult = { country: string; suggestFound: boolean; searchFound: boolean };

/** The share of queries found by suggest and by search, per dataset and over all; null without queries. */
export function placeNameRates(
  results: ReadonlyArray<PlaceNameResult>,
): Array<{ country: string; queries: number; suggest: number; search: number }> {
  const countries = [...new Set(results.map((result) => result.country)), 'all'];
  return countries.map((country) => {
    const chosen = results.filter((result) => country === 'all' || result.country === country);
    const share = (found: (result: PlaceNameResult) => boolean) =>
      chosen.length === 0 ? 0 : chosen.filter(found).length / chosen.length;
    return {
      country,
      queries: chosen.length,
      suggest: share((result) => result.suggestFound),
      search: share((result) => result.searchFound),
    };
  });
}
