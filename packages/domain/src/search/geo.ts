import { fail, ok, type Result } from '../shared/result.js';

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

/** Elasticsearch's mean Earth radius, in metres, for the arc distances it computes. */
const EARTH_MEAN_RADIUS_M = 6_371_008.7714;

/**
 * The arc (great-circle, haversine) distance in metres between two points, as Elasticsearch computes
 * `arc` distances: what a record shows as `distanceMeters` when the search is not ordered by distance
 * (Elasticsearch then returns no distance of its own).
 */
export function arcDistanceMeters(from: GeoPoint, to: GeoPoint): number {
  const radians = Math.PI / 180;
  const deltaLat = (to.lat - from.lat) * radians;
  const deltaLon = (to.lon - from.lon) * radians;
  const h =
    Math.sin(deltaLat / 2) ** 2 +
    Math.cos(from.lat * radians) * Math.cos(to.lat * radians) * Math.sin(deltaLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A map viewport (`bbox`): its west and east edges' longitudes and its south and north edges' latitudes.
 * `west > east` is a box across the antimeridian (e.g. Fiji's "177,-19,-178,-16"); Elasticsearch's
 * bounding-box query takes such a box as it is.
 */
export type BoundingBox = { west: number; south: number; east: number; north: number };

export const BBOX_REASON =
  'must be "minLng,minLat,maxLng,maxLat" in decimal degrees (the west, south, east and north edges), e.g. "13.3,52.4,13.5,52.6"';

/**
 * Parses `bbox` text, "minLng,minLat,maxLng,maxLat" (the GeoJSON and OGC order). The south edge must not
 * lie north of the north edge (that box names nothing); a west edge east of the east edge is a box across
 * the antimeridian. A box of zero width or height is refused: it holds no viewport.
 */
export function parseBbox(text: string): Result<BoundingBox> {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length !== 4 || !parts.every((part) => DECIMAL_DEGREES.test(part))) return fail(BBOX_REASON);
  const [west, south, east, north] = parts.map((part) => Number(part) + 0) as [
    number,
    number,
    number,
    number,
  ];
  if (west < -180 || west > 180 || east < -180 || east > 180)
    return fail('longitudes (the 1st and 3rd numbers) must be from -180 to 180');
  if (south < -90 || south > 90 || north < -90 || north > 90)
    return fail('latitudes (the 2nd and 4th numbers) must be from -90 to 90');
  if (south > north) return fail('minLat (the 2nd number) must not be greater than maxLat (the 4th)');
  if (south === north || west === east) return fail('the box must have a width and a height');
  return ok({ west, south, east, north });
}
