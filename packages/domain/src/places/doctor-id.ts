import { PLACE_ID_PATTERN } from '../events/events.js';
import { parseProfileUrl, type ProfileRef } from './profile-url.js';
import { fail, ok, type Result } from '../shared/result.js';

/** A doctorId (a place id or a whole profile URL) is at most 2048 characters (docs/api.md, Limits). */
export const MAX_DOCTOR_ID_LENGTH = 2048;

export const DOCTOR_ID_REASON =
  'must be a doctor id from a search response (1-128 characters A-Z a-z 0-9 _ -) or a complete profile URL of this website, URL-encoded';

/** What a doctorId names: a place by id, or a profile page by its coordinates (any page language). */
export type DoctorRef = { placeId: string } | { profile: ProfileRef };

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Reads a doctorId: a place id, or (anything that starts like a URL) a canonical profile URL of
 * `siteOrigin`. Parse, never fetch: the URL is only ever taken apart as a string.
 */
export function parseDoctorId(doctorId: string, siteOrigin: string): Result<DoctorRef> {
  if (doctorId.length > MAX_DOCTOR_ID_LENGTH)
    return fail(`must be at most ${MAX_DOCTOR_ID_LENGTH} characters`);
  if (SCHEME.test(doctorId)) {
    const parsed = parseProfileUrl(doctorId, siteOrigin);
    if (!parsed.ok) return parsed;
    const { country, citySlug, profileSlug } = parsed.value;
    return ok({ profile: { country, citySlug, profileSlug } });
  }
  return PLACE_ID_PATTERN.test(doctorId) ? ok({ placeId: doctorId }) : fail(DOCTOR_ID_REASON);
}
