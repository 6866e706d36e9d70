import { toDoctor, type Doctor, type ListsEveryKey, type ToDoctorOptions } from './doctor.js';
import type { CountryCode } from './events.js';
import { isServed, type PlaceState } from './place-state.js';
import { foldText } from './text.js';

/**
 * What the search index holds for a served place: the public Doctor exactly as served, plus the few
 * search-only fields the queries filter and sort on. Nothing else can reach the index.
 */
export type SearchDocument = {
  served: true;
  placeId: string;
  doctor: Doctor;
  country: CountryCode;
  citySlug: string;
  profileSlug: string;
  whatsappEligible: boolean;
  verified: boolean;
  /** Folded display name: the first sort key. */
  sortName: string;
  /** Folded names, city, primary type and specialties: what `q` matches. */
  searchText: string;
};

/** A place that is not served; indexed as a versioned tombstone so a stale write cannot resurrect it. */
export type Tombstone = { served: false; placeId: string };

export const SEARCH_DOCUMENT_KEYS = [
  'served',
  'placeId',
  'doctor',
  'country',
  'citySlug',
  'profileSlug',
  'whatsappEligible',
  'verified',
  'sortName',
  'searchText',
] as const satisfies ReadonlyArray<keyof SearchDocument>;
export const TOMBSTONE_KEYS = ['served', 'placeId'] as const satisfies ReadonlyArray<keyof Tombstone>;

const _keyListsComplete: [
  ListsEveryKey<SearchDocument, typeof SEARCH_DOCUMENT_KEYS>,
  ListsEveryKey<Tombstone, typeof TOMBSTONE_KEYS>,
] = [true, true];

export function toSearchDocument(state: PlaceState, options: ToDoctorOptions): SearchDocument | Tombstone {
  const { publication } = state;
  if (!isServed(state) || publication === null) return { served: false, placeId: state.placeId };
  const doctor = toDoctor(state, options);
  const searchable = [
    doctor.name,
    doctor.legalName,
    doctor.address.city,
    doctor.primaryType,
    ...doctor.specialties,
  ].filter((text): text is string => text !== null);
  return {
    served: true,
    placeId: state.placeId,
    doctor,
    country: publication.country,
    citySlug: publication.citySlug,
    profileSlug: publication.profileSlug,
    whatsappEligible: doctor.whatsappEligible,
    verified: doctor.verified,
    sortName: foldText(doctor.name ?? doctor.legalName ?? ''),
    searchText: foldText(searchable.join(' ')),
  };
}
