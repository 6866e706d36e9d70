import { jaroWinkler } from '@skyra/jaro-winkler';
import type { MatchRecord } from './normalize.js';

/** How two records compare, field by field: what the score was made of. */
export type Evidence = {
  /** Jaro-Winkler similarity of the names' distinctive words (of the whole names when either has none), 0..1. */
  name: number;
  /** Whether the name had distinctive words on both sides (a generic name weighs less). */
  distinctiveName: boolean;
  /** `same`: a number in common; `different`: both have numbers, none in common; `missing`: either has none. */
  phone: 'same' | 'different' | 'missing';
  website: 'same' | 'different' | 'missing';
  /** `same`: street and number; `same-street`: another number; `different`; `missing`: either has none. */
  street: 'same' | 'same-street' | 'different' | 'missing';
  postalCode: 'same' | 'different' | 'missing';
  /** Metres between the two points, rounded; null when either has none. */
  distanceM: number | null;
};

export type ScoredPair = { score: number; evidence: Evidence };

/**
 * The weight each piece of evidence adds (log-odds-like: positive for "same practice", negative for
 * "another one"). A shared phone number or website is the strongest sign; a different one counts
 * against, as practices rarely change them; a different address counts little (practices move).
 */
export const WEIGHTS = Object.freeze({
  phoneSame: 6,
  phoneDifferent: -4,
  websiteSame: 3,
  websiteDifferent: -3,
  /** Name similarity ≥ 0.97, ≥ 0.9, ≥ 0.8, below. */
  nameExact: 3,
  nameClose: 2,
  nameLoose: 0,
  nameDifferent: -4,
  /** A generic name ("Centro Médico Madrid") that agrees says little. */
  genericNameSame: 1,
  streetSame: 2,
  streetSameStreet: 0.5,
  streetDifferent: -1,
  postalCodeSame: 0.5,
  /** Within 150 m, within 1 km, more than 5 km apart. */
  near: 1.5,
  close: 0.5,
  far: -1,
});

/** Pairs scoring at least this are proposed as duplicates (measured: `npm run bench:duplicates`). */
export const DEFAULT_MIN_SCORE = 6;

/** Scores two normalized records. Symmetric: `scorePair(a, b)` equals `scorePair(b, a)`. */
export function scorePair(a: MatchRecord, b: MatchRecord): ScoredPair {
  const distinctive = a.distinctiveName !== '' && b.distinctiveName !== '';
  const name = distinctive
    ? similarity(a.distinctiveName, b.distinctiveName)
    : similarity(a.fullName, b.fullName);
  const evidence: Evidence = {
    name: Math.round(name * 1000) / 1000,
    distinctiveName: distinctive,
    phone: compareSets(a.phones, b.phones),
    website: compareValues(a.domain, b.domain),
    street: compareStreets(a, b),
    postalCode: compareValues(a.postalCode || null, b.postalCode || null),
    distanceM:
      a.location === null || b.location === null ? null : Math.round(distanceMetres(a.location, b.location)),
  };
  return { score: scoreOf(evidence), evidence };
}

/** The score of a piece of evidence: the sum of its weights. */
export function scoreOf(evidence: Evidence): number {
  let score = 0;
  if (evidence.phone === 'same') score += WEIGHTS.phoneSame;
  else if (evidence.phone === 'different') score += WEIGHTS.phoneDifferent;
  if (evidence.website === 'same') score += WEIGHTS.websiteSame;
  else if (evidence.website === 'different') score += WEIGHTS.websiteDifferent;
  if (!evidence.distinctiveName) {
    score += evidence.name >= 0.97 ? WEIGHTS.genericNameSame : WEIGHTS.nameDifferent;
  } else if (evidence.name >= 0.97) score += WEIGHTS.nameExact;
  else if (evidence.name >= 0.9) score += WEIGHTS.nameClose;
  else if (evidence.name >= 0.8) score += WEIGHTS.nameLoose;
  else score += WEIGHTS.nameDifferent;
  if (evidence.street === 'same') score += WEIGHTS.streetSame;
  else if (evidence.street === 'same-street') score += WEIGHTS.streetSameStreet;
  else if (evidence.street === 'different') score += WEIGHTS.streetDifferent;
  if (evidence.postalCode === 'same') score += WEIGHTS.postalCodeSame;
  if (evidence.distanceM !== null) {
    if (evidence.distanceM <= 150) score += WEIGHTS.near;
    else if (evidence.distanceM <= 1_000) score += WEIGHTS.close;
    else if (evidence.distanceM > 5_000) score += WEIGHTS.far;
  }
  return Math.round(score * 100) / 100;
}

/** Jaro-Winkler, with the arguments in one order so that the result cannot depend on theirs. */
function similarity(x: string, y: string): number {
  if (x === y) return 1;
  if (x === '' || y === '') return 0;
  return x < y ? jaroWinkler(x, y) : jaroWinkler(y, x);
}

function compareSets(x: ReadonlyArray<string>, y: ReadonlyArray<string>): Evidence['phone'] {
  if (x.length === 0 || y.length === 0) return 'missing';
  return x.some((value) => y.includes(value)) ? 'same' : 'different';
}

function compareValues(x: string | null, y: string | null): 'same' | 'different' | 'missing' {
  if (x === null || y === null) return 'missing';
  return x === y ? 'same' : 'different';
}

function compareStreets(a: MatchRecord, b: MatchRecord): Evidence['street'] {
  if (a.streetName === '' || b.streetName === '') return 'missing';
  if (a.streetName !== b.streetName) return 'different';
  return a.houseNumber === b.houseNumber ? 'same' : 'same-street';
}

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance (haversine). */
export function distanceMetres(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const toRadians = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * toRadians;
  const dLon = (b.longitude - a.longitude) * toRadians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * toRadians) * Math.cos(b.latitude * toRadians) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
