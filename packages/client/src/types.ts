import type { components, operations } from './generated/openapi.js';
import type { RequestOptions } from './transport.js';

// The API's shapes, named, from the types generated from its OpenAPI document. Response objects are open:
// a later 1.x may add fields, which these types do not list and a program should ignore.
type Schemas = components['schemas'];

export type Doctor = Schemas['Doctor'];
/** A record shaped by `fields`: `id` always, the other fields only when named. */
export type SelectedDoctor = Schemas['SelectedDoctor'];
export type SelectedSearchResult = Schemas['SelectedSearchResult'];
export type SelectedDoctorPage = Schemas['SelectedDoctorPage'];
export type SelectedDoctorBatch = Schemas['SelectedDoctorBatch'];
// The document gives each operation one success schema, the selected records' (every field optional but
// `id`); without `fields` every Doctor field is present, which these types say.
/** A Doctor as search returns it: plus `distanceMeters` with `near`. */
export type SearchResult = Doctor & { distanceMeters?: number };
export type DoctorPage = Omit<SelectedDoctorPage, 'doctors'> & { doctors: SearchResult[] };
export type DoctorBatch = Omit<SelectedDoctorBatch, 'doctors'> & { doctors: Doctor[] };
export type Key = Schemas['Key'];
export type Change = Schemas['Change'];
export type ChangesPage = Schemas['ChangesPage'];
export type City = Schemas['City'];
export type CityList = Schemas['CityList'];
export type Specialty = Schemas['Specialty'];
export type SpecialtyList = Schemas['SpecialtyList'];
export type SuggestionList = Schemas['SuggestionList'];
export type Suggestion = SuggestionList['suggestions'][number];

type SearchQuery = NonNullable<operations['searchDoctors']['parameters']['query']>;

/** A record field `fields` may name. */
export type DoctorField = keyof Doctor | Exclude<keyof SelectedDoctor, 'distanceMeters'>;
/** The record fields to return: a list of names, or `'*'` for every field (the 1.2 and 1.3 extras included). */
export type Fields = readonly DoctorField[] | '*';
/** A page language of `profileUrl` (and of specialty labels). */
export type Language = NonNullable<SearchQuery['lang']>;

/** Search filters, sort, paging and record shape (docs/api.md, "GET /api/v1/doctors"). */
export type SearchParams = Omit<SearchQuery, 'ids' | 'fields' | 'country'> & {
  country: string;
  fields?: Fields;
} & RequestOptions;

/** The page a search answers with: shaped records when `fields` is given. */
export type SearchPageOf<P> = P extends { fields: Fields } ? SelectedDoctorPage : DoctorPage;
export type SearchRecordOf<P> = SearchPageOf<P>['doctors'][number];

/** How a single or batch get shapes its records. */
export type RecordOptions = { fields?: Fields; lang?: Language } & RequestOptions;
export type RecordOf<O> = O extends { fields: Fields } ? SelectedDoctor : Doctor;
export type BatchOf<O> = O extends { fields: Fields } ? SelectedDoctorBatch : DoctorBatch;

export type ChangesParams = NonNullable<operations['listChanges']['parameters']['query']> & RequestOptions;
export type CitiesParams = operations['listCities']['parameters']['query'] & RequestOptions;
export type SpecialtiesParams = NonNullable<operations['listSpecialties']['parameters']['query']> &
  RequestOptions;
export type SuggestParams = operations['suggest']['parameters']['query'] & RequestOptions;
