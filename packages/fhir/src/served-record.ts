import type { Doctor, DoctorExtras } from '@directory/domain';

/**
 * What the FHIR directory maps: one served record as the API serves it (the allowlisted Doctor and its
 * extras, read from the search index) and its stream version (the index document's external version,
 * the number of the place's last event folded into it).
 */
export type ServedRecord = { doctor: Doctor; extras: DoctorExtras; version: number };
