import { fail, ok, type Result } from '../result.js';

/**
 * Geo search: the `near` point and `radius` of a search, as parsed from text, and the distance
 * a record is shown with. Elasticsearch computes the distances (arc, metres); this module holds the rules
 * the API states about them.
 */

/** A WGS 84 point in Elasticsearch's `geo_point` object form (the search document's `location`). */
export type GeoPoint = { lat: number; lon: number };

/** Metres searched around `near` when no `radius` is given. */
export const GEO_RADIUS_DEFAULT_M = 10_000;
/** The largest `radius`: a wider circle is a country, not "near", and costs a scan of it. */
export const GEO_RADIUS_MAX_M = 50_000;

// Plain decimal degrees only: no exponents, no hex, no "Infinity", at most 10 decimals (~0.01 mm).
const DECIMAL_DEGREES = /^[+-]?\d{1,3}(?:\.\d{1,10})?$/;

export const NEAR_REASON =
  'must be "latitude,longitude" in decimal degrees, e.g. "52.52,13.405" (latitude -90 to 90, longitude -180 to 180)';

/** Parses `near` text, "lat,lng" in decimal degrees (spaces around either number are allowed). */
export function parseNear(text: string): Result<GeoPoint> {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 2) return fail(NEAR_REASON);
  const [latitudeText = '', longitudeText = ''] = parts;
  if (!DECIMAL_DEGREES.test(latitudeText) || !DECIMAL_DEGREES.test(longitudeText)) return fail(NEAR_REASON);
  const lat = Number(latitudeText);
  const lon = Number(longitudeText);
  if (lat < -90 || lat > 90) return fail('latitude (before the comma) must be from -90 to 90');
  if (lon < -180 || lon > 180) return fail('longitude (after the comma) must be from -180 to 180');
  // -0 and 0 are the same place; keep one spelling so cursors bind the same value.
  return ok({ lat: lat + 0, lon: lon + 0 });
}

/**
 * The `distanceMeters` of a record: the search's sort value (arc distance in metres, as Elasticsearch
 * computed it) rounded to whole metres. Throws on anything but a finite non-negative number: the sort
 * value of a geo search is always one.
 */
export function toDistanceMeters(sortValue: unknown): number {
  if (typeof sortValue !== 'number' || !Number.isFinite(sortValue) || sortValue < 0) {
    throw new Error(`geo search hit without a distance sort value: ${String(sortValue)}`);
  }
  return Math.round(sortValue);
}
