import { specialtyVocabularyPage } from '@directory/domain';
import type { CodeableConcept, Coding } from './fhir-resources.js';

/**
 * The specialty vocabulary (GET /api/v1/specialties) as a FHIR CodeSystem and the ValueSet of all its
 * codes, served at /fhir/R4/CodeSystem/specialty and /fhir/R4/ValueSet/specialty. Their canonical URLs
 * are the service's own (the website's origin), so they stay put whichever host serves the API.
 */

export const SPECIALTY_RESOURCE_ID = 'specialty';
/** The publication date of the vocabulary's codes as a FHIR resource: codes are added, never renamed. */
const PUBLISHED = '2026-11-29';

export function specialtyCodeSystemUrl(siteOrigin: string): string {
  return `${siteOrigin}/fhir/CodeSystem/${SPECIALTY_RESOURCE_ID}`;
}
export function specialtyValueSetUrl(siteOrigin: string): string {
  return `${siteOrigin}/fhir/ValueSet/${SPECIALTY_RESOURCE_ID}`;
}

const ENGLISH_LABELS: ReadonlyMap<string, string> = new Map(
  specialtyVocabularyPage('en').specialties.map(({ code, label }) => [code, label]),
);

export function specialtyCoding(siteOrigin: string, code: string): Coding {
  const display = ENGLISH_LABELS.get(code);
  return {
    system: specialtyCodeSystemUrl(siteOrigin),
    code,
    ...(display === undefined ? {} : { display }),
  };
}

export function specialtyConcept(siteOrigin: string, code: string): CodeableConcept {
  return { coding: [specialtyCoding(siteOrigin, code)] };
}

/** What every terminology resource published here says of itself (FHIR's canonical resource metadata). */
export type CanonicalMetadata = {
  id: string;
  url: string;
  name: string;
  title: string;
  status: 'active';
  date: string;
  description: string;
};

export type CodeSystemResource = CanonicalMetadata & {
  resourceType: 'CodeSystem';
  caseSensitive: true;
  valueSet: string;
  content: 'complete';
  count: number;
  concept: Array<{ code: string; display: string }>;
};

export type ValueSetResource = CanonicalMetadata & {
  resourceType: 'ValueSet';
  compose: { include: [{ system: string }] };
};

export function specialtyCodeSystem(siteOrigin: string): CodeSystemResource {
  const concept = [...ENGLISH_LABELS].map(([code, display]) => ({ code, display }));
  return {
    resourceType: 'CodeSystem',
    id: SPECIALTY_RESOURCE_ID,
    url: specialtyCodeSystemUrl(siteOrigin),
    name: 'DirectorySpecialty',
    title: 'Directory specialty codes',
    status: 'active',
    date: PUBLISHED,
    description:
      'Stable, language-independent codes of what a practice or clinic offers: the codes of GET /api/v1/specialties, with their English labels.',
    caseSensitive: true,
    valueSet: specialtyValueSetUrl(siteOrigin),
    content: 'complete',
    count: concept.length,
    concept,
  };
}

export function specialtyValueSet(siteOrigin: string): ValueSetResource {
  return {
    resourceType: 'ValueSet',
    id: SPECIALTY_RESOURCE_ID,
    url: specialtyValueSetUrl(siteOrigin),
    name: 'DirectorySpecialty',
    title: 'Directory specialty codes',
    status: 'active',
    date: PUBLISHED,
    description: 'Every code of the directory specialty code system.',
    compose: { include: [{ system: specialtyCodeSystemUrl(siteOrigin) }] },
  };
}
