import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, SLUG_PATTERN } from '../src/events/events.js';
import {
  buildProfileUrl,
  PAGE_LANGUAGE_CODES,
  PAGE_LANGUAGES,
  parseProfileUrl,
  type ProfileRef,
} from '../src/places/profile-url.js';

const SITE = 'https://site.example';
const PATH = '/en/doctors/de/berlin/praxis-dr-mueller';
const REF: ProfileRef = { country: 'de', citySlug: 'berlin', profileSlug: 'praxis-dr-mueller' };

function reasonFor(input: string, site = SITE): string {
  const result = parseProfileUrl(input, site);
  if (result.ok) throw new Error(`expected ${input} to be rejected`);
  return result.error;
}

describe('buildProfileUrl', () => {
  it('builds the canonical English URL by default', () => {
    expect(buildProfileUrl(SITE, REF)).toBe(`https://site.example${PATH}`);
  });

  it.each(Object.entries(PAGE_LANGUAGES))('uses the section word of %s', (lang, section) => {
    expect(buildProfileUrl(SITE, REF, lang as keyof typeof PAGE_LANGUAGES)).toBe(
      `https://site.example/${lang}/${section}/de/berlin/praxis-dr-mueller`,
    );
  });

  it('uses only the origin of the configured site', () => {
    expect(buildProfileUrl('https://site.example/', REF)).toBe(`https://site.example${PATH}`);
    expect(buildProfileUrl('http://localhost:3000/ignored', REF)).toBe(`http://localhost:3000${PATH}`);
  });

  it('refuses a site origin that is not http(s)', () => {
    expect(() => buildProfileUrl('not a url', REF)).toThrow(/Invalid site origin/);
    expect(() => buildProfileUrl('ftp://site.example', REF)).toThrow(/must be http/);
  });
});

describe('parseProfileUrl', () => {
  it('reads a canonical URL', () => {
    expect(parseProfileUrl(`https://site.example${PATH}`, SITE)).toEqual({
      ok: true,
      value: { lang: 'en', ...REF },
    });
  });

  it('resolves every translation to the same place', () => {
    const refs = PAGE_LANGUAGE_CODES.map((lang) => {
      const result = parseProfileUrl(buildProfileUrl(SITE, REF, lang), SITE);
      return result.ok
        ? {
            country: result.value.country,
            citySlug: result.value.citySlug,
            profileSlug: result.value.profileSlug,
          }
        : result;
    });
    expect(refs).toEqual(PAGE_LANGUAGE_CODES.map(() => REF));
  });

  it('accepts the host in any case and an explicit default port, which URL parsing normalizes', () => {
    expect(parseProfileUrl(`HTTPS://SITE.Example${PATH}`, SITE).ok).toBe(true);
    expect(parseProfileUrl(`https://site.example:443${PATH}`, SITE).ok).toBe(true);
  });

  it('allows http only when the site itself is http (local development)', () => {
    const devSite = 'http://localhost:3000';
    expect(parseProfileUrl(`http://localhost:3000${PATH}`, devSite).ok).toBe(true);
    expect(reasonFor(`http://localhost:3001${PATH}`, devSite)).toMatch(/port/);
    expect(reasonFor(`https://localhost:3000${PATH}`, devSite)).toMatch(/must use http:/);
  });

  // One row per rejection rule; each input is otherwise a valid profile URL.
  it.each([
    ['plain http', `http://site.example${PATH}`, /must use https:/],
    ['another scheme', `ftp://site.example${PATH}`, /must use https:/],
    ['no scheme', `site.example${PATH}`, /not an absolute URL/],
    ['a scheme-relative URL', `//site.example${PATH}`, /not an absolute URL/],
    ['a single slash after the scheme', `https:/site.example${PATH}`, /not an absolute URL/],
    ['an empty host', `https://${PATH}`, /no host/],
    ['another host', `https://evil.com${PATH}`, /must be on site\.example/],
    ['a subdomain of another host', `https://site.example.evil.com${PATH}`, /must be on site\.example/],
    ['our host as a path of another', `https://evil.com/site.example${PATH}`, /must be on site\.example/],
    ['our host with another TLD', `https://site.example.evil${PATH}`, /must be on site\.example/],
    ['a subdomain of our host', `https://www.site.example${PATH}`, /must be on site\.example/],
    ['a Cyrillic homograph', `https://sіte.example${PATH}`, /must be on site\.example/],
    ['a punycode host', `https://xn--ste-gpd.example${PATH}`, /must be on site\.example/],
    ['a trailing-dot host', `https://site.example.${PATH}`, /must be on site\.example/],
    ['an encoded dot in the host', `https://site%2eexample.evil.com${PATH}`, /must be on site\.example/],
    ['an IP address', `https://127.0.0.1${PATH}`, /must be on site\.example/],
    ['another port', `https://site.example:8443${PATH}`, /port/],
    ['a user', `https://user@site.example${PATH}`, /credentials/],
    ['a user and password', `https://user:pass@site.example${PATH}`, /credentials/],
    ['an empty userinfo', `https://@site.example${PATH}`, /credentials/],
    ['userinfo that looks like our host', `https://site.example@evil.com${PATH}`, /credentials/],
    ['a query string', `https://site.example${PATH}?ref=1`, /query string/],
    ['an empty query string', `https://site.example${PATH}?`, /query string/],
    ['a fragment', `https://site.example${PATH}#top`, /fragment/],
    ['an empty fragment', `https://site.example${PATH}#`, /fragment/],
    ['a backslash', `https://site.example\\en/doctors/de/berlin/praxis-dr-mueller`, /backslash/],
    ['a backslash host trick', `https://evil.com\\@site.example${PATH}`, /backslash/],
    ['a space', `https://site.example${PATH} `, /whitespace/],
    ['a tab inside', `https://site.example/en/doc\ttors/de/berlin/x`, /whitespace/],
    ['a newline', `https://site.example${PATH}\n`, /whitespace/],
    ['a NUL', `https://site.example${PATH}\u0000`, /control/],
    ['a zero-width space', `https://site.example/en/doctors/de/ber\u200blin/x`, /invisible/],
    ['an encoded slash', `https://site.example/en/doctors/de/berlin%2Fpraxis/x`, /encoded slashes/],
    ['an encoded lowercase slash', `https://site.example/en/doctors/de/berlin%2fpraxis/x`, /encoded slashes/],
    ['an encoded backslash', `https://site.example/en/doctors/de/berlin%5cpraxis/x`, /encoded slashes/],
    ['an encoded dot segment', `https://site.example/en/doctors/de/%2e%2e/x`, /encoded dots/],
    ['other percent-encoding', `https://site.example/en/doctors/de/berlin/praxis%41`, /percent-encoded/],
    ['a dot segment', `https://site.example/en/doctors/./de/berlin/x`, /dot segments/],
    ['a dot-dot segment', `https://site.example/en/doctors/xx/../de/berlin/x`, /dot segments/],
    ['a trailing slash', `https://site.example${PATH}/`, /end with a slash/],
    ['an empty segment', `https://site.example/en//doctors/de/berlin/x`, /not a profile path/],
    ['no path', `https://site.example`, /got 0/],
    ['the root path', `https://site.example/`, /not a profile path/],
    ['too few segments', `https://site.example/en/doctors/de/berlin`, /got 4/],
    ['too many segments', `https://site.example${PATH}/reviews`, /got 6/],
    ['an unknown language', `https://site.example/nl/artsen/de/berlin/x`, /unknown page language/],
    [
      'a section of another language',
      `https://site.example/de/doctors/de/berlin/x`,
      /section must be "aerzte"/,
    ],
    ['an unknown section', `https://site.example/en/clinics/de/berlin/x`, /section must be "doctors"/],
    ['an uppercase language', `https://site.example/EN/doctors/de/berlin/x`, /language must be lowercase/],
    ['an uppercase country', `https://site.example/en/doctors/DE/berlin/x`, /country must be lowercase/],
    ['an uppercase city', `https://site.example/en/doctors/de/Berlin/x`, /city slug must be lowercase/],
    [
      'an uppercase profile',
      `https://site.example/en/doctors/de/berlin/Praxis`,
      /profile slug must be lowercase/,
    ],
    ['an unknown country', `https://site.example/en/doctors/uk/london/x`, /unknown country/],
    ['a city that is not a slug', `https://site.example/en/doctors/de/bad_homburg/x`, /city slug must match/],
    [
      'a profile that is not a slug',
      `https://site.example/en/doctors/de/berlin/-x`,
      /profile slug must match/,
    ],
    ['a non-ASCII slug', `https://site.example/en/doctors/de/köln/x`, /city slug must match/],
    ['input over 2048 characters', `https://site.example/en/doctors/de/berlin/${'a'.repeat(2048)}`, /2048/],
  ])('rejects %s', (_name, input, reason) => {
    expect(reasonFor(input)).toMatch(reason);
  });

  it('accepts exactly 2048 characters', () => {
    const prefix = `https://site.example/en/doctors/de/berlin/`;
    expect(parseProfileUrl(prefix + 'a'.repeat(2048 - prefix.length), SITE).ok).toBe(true);
  });
});

const slugArbitrary = fc.stringMatching(SLUG_PATTERN, { maxLength: 40 });
const refArbitrary = fc.record({
  country: fc.constantFrom(...COUNTRY_CODES),
  citySlug: slugArbitrary,
  profileSlug: slugArbitrary,
});

// Hosts that are close to the site host in the ways attackers like, plus arbitrary ones.
const hostArbitrary = fc.oneof(
  fc.constantFrom(
    'site.example',
    'SITE.EXAMPLE',
    'site.example.',
    'site.example:443',
    'site.example:8443',
    'www.site.example',
    'site.example.evil.com',
    'site.example.evil',
    'evil.com',
    'sіte.example',
    'xn--ste-gpd.example',
    'site%2eexample',
    'site.exampl%65',
    'site.example%2eevil.com',
    'user@site.example',
    'site.example@evil.com',
    'site.example:@evil.com',
    '127.0.0.1',
    '[::1]',
  ),
  fc.domain(),
  fc
    .tuple(fc.domain(), fc.constantFrom('.', '@', ':', '%2e', '.site.example'))
    .map(([host, glue]) => `site.example${glue}${host}`),
);

describe('profile URL laws', () => {
  it('round-trips buildProfileUrl in every language', () => {
    fc.assert(
      fc.property(refArbitrary, fc.constantFrom(...PAGE_LANGUAGE_CODES), (ref, lang) => {
        expect(parseProfileUrl(buildProfileUrl(SITE, ref, lang), SITE)).toEqual({
          ok: true,
          value: { lang, ...ref },
        });
      }),
    );
  });

  it('never accepts a URL whose host (or port) is not the site host', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('https', 'http', 'HTTPS'),
        hostArbitrary,
        refArbitrary,
        fc.constantFrom(...PAGE_LANGUAGE_CODES),
        (scheme, host, ref, lang) => {
          const path = new URL(buildProfileUrl(SITE, ref, lang)).pathname;
          const input = `${scheme}://${host}${path}`;
          const result = parseProfileUrl(input, SITE);
          if (result.ok) {
            const url = new URL(input);
            expect(url.hostname).toBe('site.example');
            expect(url.port).toBe('');
            expect(url.username + url.password).toBe('');
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never accepts arbitrary web URLs from other hosts', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (input) => {
        const result = parseProfileUrl(input, SITE);
        if (result.ok) expect(new URL(input).hostname).toBe('site.example');
      }),
      { numRuns: 500 },
    );
  });
});
