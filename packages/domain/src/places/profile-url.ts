import { COUNTRY_CODES, SLUG_PATTERN, type CountryCode } from '../events/events.js';
import { fail, ok, type Result } from '../shared/result.js';

/** Page language → that language's word for the directory section of the website. */
export const PAGE_LANGUAGES = {
  en: 'doctors',
  de: 'aerzte',
  es: 'medicos',
  fr: 'medecins',
  it: 'medici',
  pt: 'medicos',
} as const;
export type PageLanguage = keyof typeof PAGE_LANGUAGES;
export const PAGE_LANGUAGE_CODES = Object.keys(PAGE_LANGUAGES) as ReadonlyArray<PageLanguage>;

export const MAX_PROFILE_URL_LENGTH = 2048;

/** What identifies a profile, whatever the page language. */
export type ProfileRef = { country: CountryCode; citySlug: string; profileSlug: string };
export type ParsedProfileUrl = ProfileRef & { lang: PageLanguage };

/** One key per profile page, whatever its language: `country/citySlug/profileSlug`. */
export function profilePageKey(ref: ProfileRef): string {
  return `${ref.country}/${ref.citySlug}/${ref.profileSlug}`;
}

const SEGMENT_NAMES = ['language', 'section', 'country', 'city slug', 'profile slug'] as const;

/** `${origin}/${lang}/${section}/${country}/${citySlug}/${profileSlug}`; only the origin of `siteOrigin` is used. */
export function buildProfileUrl(siteOrigin: string, ref: ProfileRef, lang: PageLanguage = 'en'): string {
  const site = parseSiteOrigin(siteOrigin);
  return `${site.origin}/${lang}/${PAGE_LANGUAGES[lang]}/${ref.country}/${ref.citySlug}/${ref.profileSlug}`;
}

/**
 * The same profile page in another language: a profile URL as `buildProfileUrl` made it (the stored
 * record's `profileUrl`), with its language and section swapped and its origin and slugs kept. Anything
 * but such a URL is a broken record, not bad input: it throws.
 */
export function profileUrlIn(profileUrl: string, lang: PageLanguage): string {
  const { origin } = parseSiteOrigin(profileUrl);
  const parsed = parseProfileUrl(profileUrl, origin);
  if (!parsed.ok) throw new Error(`Stored profile URL is not canonical: ${parsed.error}`);
  if (parsed.value.lang === lang) return profileUrl;
  return buildProfileUrl(origin, parsed.value, lang);
}

/**
 * Reads a canonical profile URL of our own website. Parse, never fetch: the input is only ever taken
 * apart as a string. It must be exactly the form `buildProfileUrl` produces, in any page language:
 * - same scheme, hostname and port as `siteOrigin` (https, or http when the site itself is http for local
 *   development). The hostname is compared after URL parsing, which lowercases it and turns IDNs into
 *   `xn--` form, so look-alikes and homographs are simply other hosts. The trailing-dot form
 *   `site.example.` is a different string and is rejected: canonical URLs never carry it;
 * - no credentials (not even an empty `@`), query or fragment (not even an empty `?` or `#`), checked on the
 *   raw input because URL parsing drops empty ones;
 * - no backslash, whitespace, control or invisible characters, percent-encoding, dot segments, empty
 *   segments or trailing slash (one resource, one URL);
 * - path segments are case-sensitive and lowercase.
 */
export function parseProfileUrl(input: string, siteOrigin: string): Result<ParsedProfileUrl> {
  const site = parseSiteOrigin(siteOrigin);

  if (input.length > MAX_PROFILE_URL_LENGTH) {
    return fail(`profile URL is longer than ${MAX_PROFILE_URL_LENGTH} characters`);
  }
  if (/[\s\p{Cc}\p{Cf}]/u.test(input)) {
    return fail('profile URL must not contain whitespace, control or invisible characters');
  }
  if (input.includes('\\')) return fail('profile URL must not contain backslashes');
  if (input.includes('?')) return fail('profile URL must not have a query string');
  if (input.includes('#')) return fail('profile URL must not have a fragment');

  // The path, if any, starts at the first slash after the authority: one way to split, no backtracking.
  const raw = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/.exec(input);
  if (raw === null) return fail('not an absolute URL of the form scheme://host/path');
  const [, scheme = '', authority = '', rawPath = ''] = raw;

  if (`${scheme.toLowerCase()}:` !== site.protocol) return fail(`profile URL must use ${site.protocol}//`);
  if (authority.includes('@')) return fail('profile URL must not contain credentials');
  if (authority === '') return fail('profile URL has no host');

  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail('not a valid URL');
  }
  if (url.username !== '' || url.password !== '') return fail('profile URL must not contain credentials');
  if (url.hostname !== site.hostname) return fail(`profile URL must be on ${site.hostname}`);
  if (url.port !== site.port) return fail(`profile URL must use the site's port`);

  return parseProfilePath(rawPath);
}

function parseProfilePath(rawPath: string): Result<ParsedProfileUrl> {
  if (/%(?:2f|5c)/i.test(rawPath)) return fail('profile path must not contain encoded slashes');
  if (/%2e/i.test(rawPath)) return fail('profile path must not contain encoded dots');
  if (rawPath.includes('%')) return fail('profile path must not contain percent-encoded characters');

  const segments = rawPath.split('/').slice(1);
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    return fail('profile path must not contain dot segments');
  }
  if (segments.length > 1 && rawPath.endsWith('/')) return fail('profile path must not end with a slash');
  if (segments.some((segment) => segment === '')) {
    return fail('not a profile path: expected /<language>/<section>/<country>/<city>/<profile>');
  }
  if (segments.length !== SEGMENT_NAMES.length) {
    return fail(
      `not a profile path: expected 5 segments /<language>/<section>/<country>/<city>/<profile>, got ${segments.length}`,
    );
  }
  for (const [index, segment] of segments.entries()) {
    if (/[A-Z]/.test(segment)) return fail(`${SEGMENT_NAMES[index]} must be lowercase`);
  }

  const [lang = '', section = '', country = '', citySlug = '', profileSlug = ''] = segments;
  if (!isPageLanguage(lang))
    return fail(`unknown page language; expected one of ${PAGE_LANGUAGE_CODES.join(', ')}`);
  if (section !== PAGE_LANGUAGES[lang])
    return fail(`section must be "${PAGE_LANGUAGES[lang]}" for language ${lang}`);
  if (!isCountryCode(country)) return fail(`unknown country; expected one of ${COUNTRY_CODES.join(', ')}`);
  if (!SLUG_PATTERN.test(citySlug)) return fail(`city slug must match ${SLUG_PATTERN.source}`);
  if (!SLUG_PATTERN.test(profileSlug)) return fail(`profile slug must match ${SLUG_PATTERN.source}`);
  return ok({ lang, country, citySlug, profileSlug });
}

function parseSiteOrigin(siteOrigin: string): URL {
  // A bad site origin is a configuration bug, not bad input: fail loudly.
  let site: URL;
  try {
    site = new URL(siteOrigin);
  } catch {
    throw new Error(`Invalid site origin: ${siteOrigin}`);
  }
  if (site.protocol !== 'https:' && site.protocol !== 'http:') {
    throw new Error(`Site origin must be http(s): ${siteOrigin}`);
  }
  return site;
}

export function isPageLanguage(value: string): value is PageLanguage {
  return Object.hasOwn(PAGE_LANGUAGES, value);
}

function isCountryCode(value: string): value is CountryCode {
  return (COUNTRY_CODES as ReadonlyArray<string>).includes(value);
}
