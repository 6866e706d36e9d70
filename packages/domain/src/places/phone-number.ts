// The `max` metadata validates against each country's real number patterns; the default `min` build only
// checks lengths, which would let made-up numbers through as "valid".
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Longer raw strings are junk, not phone numbers; don't hand them to the parser.
const MAX_RAW_PHONE_LENGTH = 64;

/**
 * Normalizes a crawled phone number to E.164, or null when it cannot be read as a valid number.
 * `defaultCountry` (ISO 3166 alpha-2, any case) is used for numbers written in national format.
 */
export function normalizePhone(raw: string, defaultCountry?: string | null): string | null {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed.length > MAX_RAW_PHONE_LENGTH) return null;
  const country = toSupportedCountry(defaultCountry);
  const parsed =
    country === undefined
      ? parsePhoneNumberFromString(trimmed)
      : parsePhoneNumberFromString(trimmed, country);
  if (parsed === undefined || !parsed.isValid()) return null;
  return parsed.number;
}

/** The first candidate libphonenumber knows, uppercased (so 'gb' → 'GB'). */
export function phoneRegionFor(...candidates: ReadonlyArray<string | null | undefined>): string | undefined {
  for (const candidate of candidates) {
    const country = toSupportedCountry(candidate);
    if (country !== undefined) return country;
  }
  return undefined;
}

function toSupportedCountry(code: string | null | undefined) {
  if (code === null || code === undefined) return undefined;
  const upper = code.toUpperCase();
  return isSupportedCountry(upper) ? upper : undefined;
}
