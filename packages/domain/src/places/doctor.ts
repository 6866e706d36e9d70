import { z } from 'zod';
import {
  COUNTRY_CODE_PATTERN,
  PLACE_ID_PATTERN,
  TIME_OF_DAY_PATTERN,
  phoneTypeSchema,
  type Observed,
  type PhoneType,
} from '../events/events.js';
import { MAX_EMAIL_LENGTH, PUBLIC_EMAIL_PATTERN, isPublicEmail } from './email-address.js';
import { normalizePhone, phoneRegionFor } from './phone-number.js';
import type { PlaceState } from '../events/place-state.js';
import { buildProfileUrl } from './profile-url.js';
import { parsePublicHttpUrl } from './public-url.js';

export const MAX_ADDITIONAL_PHONES = 20;
export const MAX_SPECIALTIES = 50;

const e164Schema = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/)
  .meta({ description: 'Phone number in E.164 format', examples: ['+493012345678'] });
const nullableText = (description: string) => z.string().nullable().meta({ description });
const httpUrlSchema = z.url({ protocol: /^https?$/ });
const emailSchema = z.string().max(MAX_EMAIL_LENGTH).regex(PUBLIC_EMAIL_PATTERN).meta({ format: 'email' });
const timeSchema = z.string().regex(TIME_OF_DAY_PATTERN);

export const addressSchema = z
  .strictObject({
    street: nullableText('Street and house number'),
    city: nullableText('City or locality name'),
    state: nullableText('State, region or province'),
    postalCode: nullableText('Postal code'),
    country: z
      .string()
      .regex(COUNTRY_CODE_PATTERN)
      .nullable()
      .meta({ description: 'ISO 3166-1 alpha-2 country code of the address, uppercase', examples: ['DE'] }),
  })
  .meta({ description: 'Postal address; all five fields are always present, null when not published' });

export const locationSchema = z
  .strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .meta({ description: 'WGS 84 coordinates' });

export const phoneRecordSchema = z.strictObject({
  number: e164Schema,
  type: phoneTypeSchema.nullable().meta({ description: 'Line type as observed, null when unknown' }),
});
export type PhoneRecord = z.infer<typeof phoneRecordSchema>;

export const timeRangeSchema = z
  .strictObject({ open: timeSchema, close: timeSchema })
  .meta({ description: 'Local opening time range, HH:MM (close may be 24:00)' });

/** The public Doctor record (docs/api.md, The Doctor record): every field always present, nothing else. */
export const doctorSchema = z
  .strictObject({
    id: z.string().regex(PLACE_ID_PATTERN).meta({ description: 'Stable place identifier' }),
    name: nullableText('Published display name'),
    legalName: nullableText('Published legal name'),
    address: addressSchema,
    location: locationSchema.nullable(),
    phone: e164Schema.nullable().meta({ description: 'Primary phone number, normalized to E.164' }),
    phoneType: phoneTypeSchema
      .nullable()
      .meta({ description: 'Type of the primary number; null when phone is null' }),
    additionalPhones: z.array(phoneRecordSchema).max(MAX_ADDITIONAL_PHONES).meta({
      description: 'Further numbers, normalized to E.164, without duplicates or the primary number',
    }),
    email: emailSchema.nullable().meta({ description: 'Published practice email' }),
    website: httpUrlSchema.nullable().meta({ description: 'Website; a validated public HTTP(S) URL' }),
    googleMapsUrl: httpUrlSchema
      .nullable()
      .meta({ description: 'Google Maps link; a validated public HTTP(S) URL' }),
    primaryType: nullableText('Published category label'),
    specialties: z.array(z.string()).max(MAX_SPECIALTIES).meta({ description: 'Published subtype labels' }),
    rating: z.number().min(0).max(5).nullable().meta({ description: 'Published rating signal, 0 to 5' }),
    reviewCount: z.number().int().min(0).nullable().meta({ description: 'Published review count' }),
    whatsappEligible: z.boolean().meta({
      description:
        'Technical reachability signal only: the published primary phone (a mobile number) appears able to ' +
        'receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.',
    }),
    verified: z.boolean().meta({ description: 'Whether the listing has been verified' }),
    workingHours: z
      .record(z.string(), z.array(timeRangeSchema))
      .nullable()
      .meta({
        description:
          'Source day labels (as published, e.g. "Monday" or "Montag") mapped to time ranges. Only open days are listed: a day that is not listed is closed, and a listed day has at least one range. Null when no opening hours are published.',
        examples: [{ Monday: [{ open: '08:00', close: '12:00' }] }],
      }),
    profileUrl: httpUrlSchema.meta({
      description: "Canonical public profile address on the service's website",
    }),
  })
  .meta({ description: "A doctor's practice or a clinic" });
export type Doctor = z.infer<typeof doctorSchema>;

// The key lists the allowlist tests and fixtures check records against, read off the schemas.
export const DOCTOR_KEYS = doctorSchema.keyof().options;
export const ADDRESS_KEYS = addressSchema.keyof().options;
export const LOCATION_KEYS = locationSchema.keyof().options;
export const PHONE_RECORD_KEYS = phoneRecordSchema.keyof().options;

export type ToDoctorOptions = { siteOrigin: string };

// A place published before its first crawl has nothing observed: every field is empty.
const NOTHING_OBSERVED: Observed = {
  name: null,
  legalName: null,
  address: { street: null, city: null, state: null, postalCode: null, country: null },
  location: null,
  phone: null,
  phoneType: null,
  additionalPhones: [],
  email: null,
  website: null,
  googleMapsUrl: null,
  primaryType: null,
  specialties: [],
  rating: null,
  reviewCount: null,
  whatsappEligible: false,
  workingHours: null,
};

/**
 * The one allowlist: builds every public field explicitly from the state, so crawl metadata and any
 * field a crawler adds can never reach a response. Used by the index, the API and MCP alike.
 */
export function toDoctor(state: PlaceState, options: ToDoctorOptions): Doctor {
  const { publication } = state;
  if (publication === null) {
    throw new Error(`Place ${state.placeId} has no publication; only served places become Doctors`);
  }
  const observed = state.observed ?? NOTHING_OBSERVED;
  // National-format numbers are read in the address's country, else the dataset's.
  const region = phoneRegionFor(observed.address.country, publication.country);
  const phone = observed.phone === null ? null : normalizePhone(observed.phone, region);
  const phoneType = phone === null ? null : observed.phoneType;

  return {
    id: state.placeId,
    name: cleanText(observed.name),
    legalName: cleanText(observed.legalName),
    address: {
      street: cleanText(observed.address.street),
      city: cleanText(observed.address.city),
      state: cleanText(observed.address.state),
      postalCode: cleanText(observed.address.postalCode),
      country: observed.address.country,
    },
    location:
      observed.location === null
        ? null
        : { latitude: observed.location.latitude, longitude: observed.location.longitude },
    phone,
    phoneType,
    additionalPhones: publicAdditionalPhones(observed.additionalPhones, phone, region),
    email: publicEmail(observed.email),
    website: publicUrl(observed.website),
    googleMapsUrl: publicUrl(observed.googleMapsUrl),
    primaryType: cleanText(observed.primaryType),
    specialties: publicSpecialties(observed.specialties),
    rating: observed.rating,
    reviewCount: observed.reviewCount,
    // Only a mobile primary number can be a WhatsApp number we stand behind.
    whatsappEligible: observed.whatsappEligible && phone !== null && phoneType === 'mobile',
    verified: state.verified,
    workingHours: publicWorkingHours(observed.workingHours),
    profileUrl: buildProfileUrl(options.siteOrigin, publication),
  };
}

function cleanText(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function publicAdditionalPhones(
  phones: ReadonlyArray<{ number: string; type: PhoneType | null }>,
  primary: string | null,
  region: string | undefined,
): PhoneRecord[] {
  const seen = new Set(primary === null ? [] : [primary]);
  const records: PhoneRecord[] = [];
  for (const phone of phones) {
    if (records.length === MAX_ADDITIONAL_PHONES) break;
    const number = normalizePhone(phone.number, region);
    if (number === null || seen.has(number)) continue;
    seen.add(number);
    records.push({ number, type: phone.type });
  }
  return records;
}

function publicEmail(value: string | null): string | null {
  // The published schema's check (length first), so a served email always validates.
  const email = cleanText(value);
  return email !== null && isPublicEmail(email) ? email : null;
}

function publicUrl(value: string | null): string | null {
  const url = cleanText(value);
  // Publish the parsed form: it is a well-formed URI even when the crawled text was sloppy.
  return url === null ? null : (parsePublicHttpUrl(url)?.href ?? null);
}

function publicSpecialties(specialties: ReadonlyArray<string>): string[] {
  const unique = new Set<string>();
  for (const specialty of specialties) {
    if (unique.size === MAX_SPECIALTIES) break;
    const label = specialty.trim();
    if (label !== '') unique.add(label);
  }
  return [...unique];
}

/**
 * One shape for a closed day: it is left out. Sources mark one either way (`[]` or no entry), and the
 * labels are the source's own (any language), so the full week cannot be listed; an open day has at
 * least one range. No open day at all is no published hours: null.
 */
function publicWorkingHours(hours: Observed['workingHours']): Doctor['workingHours'] {
  if (hours === null) return null;
  const days = new Map<string, Array<{ open: string; close: string }>>();
  for (const [label, ranges] of Object.entries(hours)) {
    const day = label.trim();
    if (day === '' || days.has(day) || ranges.length === 0) continue;
    days.set(
      day,
      ranges.map((range) => ({ open: range.open, close: range.close })),
    );
  }
  // fromEntries defines own properties, so even a "__proto__" label stays plain data.
  return days.size === 0 ? null : Object.fromEntries(days);
}
