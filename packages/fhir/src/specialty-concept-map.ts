import type { SpecialtyCode } from '@directory/domain';
import { specialtyCodeSystemUrl, specialtyValueSetUrl, type CanonicalMetadata } from './specialty-codes.js';

/**
 * The specialty codes mapped to SNOMED CT, as a FHIR ConceptMap served at
 * /fhir/R4/ConceptMap/specialty-snomed. The targets are the practice-setting codes of FHIR R4's own
 * ValueSet c80-practice-codes (a unit spec holds each code and display to that ValueSet as published),
 * and only where one code names the same thing without doubt. The rest (acupuncture, homeopathy,
 * paediatrics — whose code there is a family of sub-specialties, not one —, physiotherapy, …) is left
 * unmapped rather than guessed. No resource carries SNOMED CT codes: SNOMED CT needs a licence that
 * depends on the user's country, so the map is offered to those who hold one, not imposed.
 */

export const SPECIALTY_CONCEPT_MAP_ID = 'specialty-snomed';
export const SNOMED_CT = 'http://snomed.info/sct';
export const PRACTICE_SETTING_VALUE_SET = 'http://hl7.org/fhir/ValueSet/c80-practice-codes';
const PUBLISHED = '2026-11-29';

/** `equivalent`: the same practice; `wider`: SNOMED's concept also covers more (the comment says what). */
type SnomedTarget = { code: string; display: string; equivalence: 'equivalent' | 'wider'; comment?: string };

export const SPECIALTY_TO_SNOMED: ReadonlyMap<SpecialtyCode, SnomedTarget> = new Map<
  SpecialtyCode,
  SnomedTarget
>([
  ['cardiology', { code: '394579002', display: 'Cardiology', equivalence: 'equivalent' }],
  ['dentistry', { code: '408444009', display: 'Dental-General dental practice', equivalence: 'equivalent' }],
  ['dermatology', { code: '394582007', display: 'Dermatology', equivalence: 'equivalent' }],
  ['diabetology', { code: '408475000', display: 'Diabetic medicine', equivalence: 'equivalent' }],
  ['endodontics', { code: '408441001', display: 'Surgery-Dental-Endodontics', equivalence: 'equivalent' }],
  ['general-practice', { code: '394814009', display: 'General practice', equivalence: 'equivalent' }],
  ['gynecology', { code: '394586005', display: 'Gynecology', equivalence: 'equivalent' }],
  ['internal-medicine', { code: '419192003', display: 'Internal medicine', equivalence: 'equivalent' }],
  ['ophthalmology', { code: '394594003', display: 'Ophthalmology', equivalence: 'equivalent' }],
  ['orthodontics', { code: '394608004', display: 'Surgery-Dental-Orthodontics', equivalence: 'equivalent' }],
  [
    'orthopedics',
    {
      code: '394801008',
      display: 'Surgery-Trauma and orthopedics',
      equivalence: 'wider',
      comment: 'The SNOMED CT setting also covers trauma surgery.',
    },
  ],
  ['otorhinolaryngology', { code: '418960008', display: 'Otolaryngology', equivalence: 'equivalent' }],
  ['pediatric-dentistry', { code: '394607009', display: 'Pediatric dentistry', equivalence: 'equivalent' }],
]);

export type ConceptMapResource = CanonicalMetadata & {
  resourceType: 'ConceptMap';
  copyright: string;
  sourceCanonical: string;
  targetCanonical: string;
  group: Array<{
    source: string;
    target: string;
    element: Array<{
      code: string;
      target: Array<{ code: string; display: string; equivalence: string; comment?: string }>;
    }>;
  }>;
};

export function specialtyConceptMapUrl(siteOrigin: string): string {
  return `${siteOrigin}/fhir/ConceptMap/${SPECIALTY_CONCEPT_MAP_ID}`;
}

export function specialtyConceptMap(siteOrigin: string): ConceptMapResource {
  const element = [...SPECIALTY_TO_SNOMED].map(([code, target]) => ({ code, target: [target] }));
  return {
    resourceType: 'ConceptMap',
    id: SPECIALTY_CONCEPT_MAP_ID,
    url: specialtyConceptMapUrl(siteOrigin),
    name: 'DirectorySpecialtyToSnomedCt',
    title: 'Directory specialty codes to SNOMED CT practice settings',
    status: 'active',
    date: PUBLISHED,
    description:
      "The directory's specialty codes that name exactly one practice setting of FHIR R4's ValueSet c80-practice-codes (SNOMED CT); codes without such a setting are not listed.",
    copyright:
      'The target codes are SNOMED CT, copyright of SNOMED International. Using them needs a SNOMED CT licence (free in SNOMED International member countries through their national release centre).',
    sourceCanonical: specialtyValueSetUrl(siteOrigin),
    targetCanonical: PRACTICE_SETTING_VALUE_SET,
    group: [{ source: specialtyCodeSystemUrl(siteOrigin), target: SNOMED_CT, element }],
  };
}
