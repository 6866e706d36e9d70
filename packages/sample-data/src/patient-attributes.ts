import { insuranceCodesOf, type CountryCode, type LanguageCode } from '@directory/domain';
import type { SampleCity } from './cities.js';
import type { CountryLocale } from './locales.js';
import type { Prng } from './prng.js';

/**
 * What a crawl says about languages, new patients, wheelchair access and insurance. Each may be
 * unknown: left out of `observed` (the crawler did not look) or null (it looked and found nothing),
 * in about equal parts, so filters meet both forms of "unknown" in sample data.
 */
export type ObservedPatientAttributes = {
  languages?: string[] | null;
  acceptingNewPatients?: boolean | null;
  wheelchairAccessible?: boolean | null;
  insurance?: string[] | null;
};

// Share of places whose crawl does not tell, per attribute.
const UNKNOWN_LANGUAGES = 0.2;
const UNKNOWN_ACCEPTING = 0.35;
const UNKNOWN_WHEELCHAIR = 0.4;
const UNKNOWN_INSURANCE = 0.15;

// Hamlets (≤ 1,000 people) count as size 0, cities of ~3 million as 1: English and other languages
// are far more often spoken in a big city's practice.
const SMALLEST_LOG_POPULATION = 3;
const LOG_POPULATION_SPAN = 3.5;

/**
 * The chance a practice of the country holds each contract, once its crawl names any. In Germany
 * nearly every practice bills private insurance and most the statutory funds too (a private-only
 * practice, "Privatpraxis", holds `pkv` alone). A practice that holds none of the country's
 * contracts (a private-only clinic in Spain or Italy) says nothing, as the served record cannot tell
 * "none" from "unknown".
 */
const INSURANCE_CHANCES: { [Country in CountryCode]?: Readonly<Record<string, number>> } = {
  de: { gkv: 0.87, pkv: 1 },
  es: { sns: 0.35, muface: 0.45, isfas: 0.35, mugeju: 0.25 },
  it: { ssn: 0.7 },
  pt: { sns: 0.3, adse: 0.6 },
};

export function samplePatientAttributes(
  locale: CountryLocale,
  city: SampleCity,
  dental: boolean,
  prng: Prng,
): ObservedPatientAttributes {
  return {
    ...unknownOr('languages', UNKNOWN_LANGUAGES, prng, () => sampleLanguages(locale, city, prng)),
    ...unknownOr('acceptingNewPatients', UNKNOWN_ACCEPTING, prng, () =>
      sampleAcceptingNewPatients(dental, prng),
    ),
    // Newer and bigger practices more often have step-free access; one chance fits the sample.
    ...unknownOr('wheelchairAccessible', UNKNOWN_WHEELCHAIR, prng, () => prng.chance(0.6)),
    ...unknownOr('insurance', UNKNOWN_INSURANCE, prng, () => sampleInsurance(locale.dataset, prng)),
  };
}

/** Dental practices rarely close their lists; GPs and specialists often do. */
export function sampleAcceptingNewPatients(dental: boolean, prng: Prng): boolean {
  return prng.chance(dental ? 0.85 : 0.6);
}

function unknownOr<Key extends keyof ObservedPatientAttributes>(
  key: Key,
  unknownShare: number,
  prng: Prng,
  sample: () => ObservedPatientAttributes[Key],
): ObservedPatientAttributes {
  if (prng.chance(unknownShare)) return prng.chance(0.5) ? {} : { [key]: null };
  const value = sample();
  return value === null ? {} : { [key]: value };
}

function sampleLanguages(locale: CountryLocale, city: SampleCity, prng: Prng): string[] {
  const size = Math.min(
    1,
    Math.max(0, (Math.log10(Math.max(city.population, 1)) - SMALLEST_LOG_POPULATION) / LOG_POPULATION_SPAN),
  );
  const languages = new Set<LanguageCode>();
  // A few practices, mostly for expatriates, do not list the country's language at all.
  if (prng.chance(0.98)) languages.add(locale.language);
  for (const [language, chance] of locale.regionalLanguages[city.region?.adminCode ?? ''] ?? [])
    if (prng.chance(chance)) languages.add(language);
  if (prng.chance(0.25 + 0.4 * size)) languages.add('en');
  for (const language of locale.otherLanguages) if (prng.chance(0.02 + 0.1 * size)) languages.add(language);
  if (languages.size === 0) languages.add(prng.chance(0.5) ? locale.language : 'en');
  return [...languages];
}

function sampleInsurance(country: CountryCode, prng: Prng): string[] | null {
  const chances = INSURANCE_CHANCES[country];
  if (chances === undefined) return null;
  const codes = insuranceCodesOf(country).filter((code) => prng.chance(chances[code] ?? 0));
  return codes.length === 0 ? null : codes;
}
