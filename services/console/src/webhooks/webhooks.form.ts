import { LIVE_COUNTRY_CODES, type CountryCode } from '@directory/domain';

/** The countries an endpoint can follow: the datasets with live data (the others never change). */
export const FOLLOWABLE_COUNTRIES: readonly CountryCode[] = LIVE_COUNTRY_CODES;

/** The create form as sent: the URL as typed (trimmed), the countries ticked, in the page's order. */
export type EndpointForm = { url: string; countries: CountryCode[] };

const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Germany" for `de`: the dataset codes are ISO 3166-1 codes in lowercase. */
export function countryName(code: CountryCode): string {
  return COUNTRY_NAMES.of(code.toUpperCase()) ?? code;
}

/**
 * Every value of a repeated form field (checkboxes arrive as one string, or an array when several are
 * ticked); anything else, or a value with a NUL, counts as absent.
 */
export function formValues(body: unknown, name: string): string[] {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const value = source[name];
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  return values.filter((item): item is string => typeof item === 'string' && !item.includes('\u0000'));
}

/**
 * The create form, or null when it holds a country the page does not offer (a forged or stale form:
 * refused as a whole, like any value the console never offered). An empty list is a valid form: the
 * webhooks package refuses it with its reason, shown on the page.
 */
export function endpointFormOf(url: string, countries: readonly string[]): EndpointForm | null {
  const offered = new Set<string>(FOLLOWABLE_COUNTRIES);
  if (countries.some((country) => !offered.has(country))) return null;
  const ticked = new Set(countries);
  return {
    url: url.trim(),
    countries: FOLLOWABLE_COUNTRIES.filter((country) => ticked.has(country)),
  };
}
