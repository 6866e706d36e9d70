import type { CountryCode } from '../events/events.js';
import { foldText } from '../shared/text.js';

/**
 * The IANA time zone of a place: its dataset's zone, or, where the country spans several, the one its
 * location (else its postal code, or for Mexico its state) puts it in. Opening hours are read in it.
 *
 * - es: the Canary Islands (by location, else postal codes 35xxx / 38xxx) → Atlantic/Canary; the rest,
 *   Ceuta and Melilla included, → Europe/Madrid.
 * - pt: the Azores (by location, else postal codes 9500–9999) → Atlantic/Azores; Madeira and Porto
 *   Santo (by location, else 9000–9499) → Atlantic/Madeira; the mainland → Europe/Lisbon.
 * - mx: by the address's state, as Mexican zones follow state lines: Baja California →
 *   America/Tijuana; Baja California Sur, Sinaloa, Nayarit → America/Mazatlan; Sonora →
 *   America/Hermosillo; Chihuahua → America/Chihuahua; Quintana Roo → America/Cancun; any other or
 *   unknown state → America/Mexico_City. (The border municipalities on US daylight saving time, and
 *   Bahía de Banderas on central time, are not told apart.)
 * - de → Europe/Berlin, fr → Europe/Paris (metropolitan France), gb → Europe/London, it → Europe/Rome.
 */

type Zones = readonly [main: string, ...others: string[]];

/** Every zone a record of each dataset can have, the main one first: what `openAt` queries. */
export const COUNTRY_TIME_ZONES = {
  de: ['Europe/Berlin'],
  es: ['Europe/Madrid', 'Atlantic/Canary'],
  fr: ['Europe/Paris'],
  gb: ['Europe/London'],
  it: ['Europe/Rome'],
  mx: [
    'America/Mexico_City',
    'America/Cancun',
    'America/Chihuahua',
    'America/Hermosillo',
    'America/Mazatlan',
    'America/Tijuana',
  ],
  pt: ['Europe/Lisbon', 'Atlantic/Madeira', 'Atlantic/Azores'],
} as const satisfies Record<CountryCode, Zones>;

export type TimeZone = (typeof COUNTRY_TIME_ZONES)[CountryCode][number];

type Area = { zone: TimeZone; latitude: [number, number]; longitude: [number, number] };

// Generous boxes around each island group: open sea, far from the mainland and from each other.
const ISLANDS: { [Country in CountryCode]?: readonly Area[] } = {
  es: [{ zone: 'Atlantic/Canary', latitude: [27.4, 29.6], longitude: [-18.4, -13.2] }],
  pt: [
    { zone: 'Atlantic/Azores', latitude: [36.7, 40], longitude: [-31.6, -24.8] },
    { zone: 'Atlantic/Madeira', latitude: [29.8, 33.3], longitude: [-17.5, -15.7] },
  ],
};

const MEXICAN_STATE_ZONES: ReadonlyMap<string, TimeZone> = new Map([
  ['baja california', 'America/Tijuana'],
  ['baja california sur', 'America/Mazatlan'],
  ['sinaloa', 'America/Mazatlan'],
  ['nayarit', 'America/Mazatlan'],
  ['sonora', 'America/Hermosillo'],
  ['chihuahua', 'America/Chihuahua'],
  ['quintana roo', 'America/Cancun'],
]);

/** Where a place is, as far as its time zone goes (a Doctor is one): stated here so opening hours sit below places. */
export type PlaceWhereabouts = {
  location: { latitude: number; longitude: number } | null;
  address: { postalCode: string | null; state: string | null };
};

/** The time zone of a place of dataset `country`, from where it is (see above). */
export function timeZoneOf(country: CountryCode, place: PlaceWhereabouts): TimeZone {
  const [main] = COUNTRY_TIME_ZONES[country];
  const islands = ISLANDS[country];
  if (islands !== undefined) {
    const { location } = place;
    if (location !== null) {
      return islands.find((area) => contains(area, location.latitude, location.longitude))?.zone ?? main;
    }
    return zoneOfPostalCode(country, place.address.postalCode) ?? main;
  }
  if (country === 'mx') {
    const state = place.address.state === null ? '' : foldText(place.address.state);
    return MEXICAN_STATE_ZONES.get(state) ?? main;
  }
  return main;
}

function contains(area: Area, latitude: number, longitude: number): boolean {
  const [south, north] = area.latitude;
  const [west, east] = area.longitude;
  return latitude >= south && latitude <= north && longitude >= west && longitude <= east;
}

function zoneOfPostalCode(country: CountryCode, postalCode: string | null): TimeZone | undefined {
  if (postalCode === null) return undefined;
  const code = postalCode.trim();
  if (country === 'es') {
    // Spanish postal codes start with the province: 35 Las Palmas, 38 Santa Cruz de Tenerife.
    return /^(?:35|38)\d{3}$/.test(code) ? 'Atlantic/Canary' : undefined;
  }
  if (country === 'pt') {
    // Portuguese postal codes are NNNN-NNN; the first four digits place the island groups.
    const match = /^(\d{4})(?:-\d{3})?$/.exec(code);
    if (match === null) return undefined;
    const area = Number(match[1]);
    if (area >= 9500) return 'Atlantic/Azores';
    if (area >= 9000) return 'Atlantic/Madeira';
  }
  return undefined;
}
