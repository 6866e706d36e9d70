import { fail, ok, type Result } from '@directory/domain';
import type { Coding, DirectoryResource, Meta } from './fhir-resources.js';

/**
 * `_elements` (FHIR R4 search, "Summary and elements"): a comma-separated list of top-level element
 * names; a resource answers with those and its mandatory elements (resourceType, id, meta), and is marked
 * SUBSETTED so that no client takes it for the whole resource. A name the type does not have, or that
 * this resource does not fill, selects nothing (FHIR servers return the elements they can); a name that
 * cannot be an element name at all is a 400.
 */

/** FHIR's tag for a resource served in part (v3 ObservationValue SUBSETTED). */
export const SUBSETTED: Coding = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
  code: 'SUBSETTED',
  display: 'subsetted',
};

/** The elements every subset keeps. */
const MANDATORY = ['resourceType', 'id', 'meta'] as const;
const MAX_ELEMENTS = 50;
// A FHIR element name: a letter, then letters and digits (64 at most). One pass, no backtracking.
const ELEMENT_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** A resource of `_elements`: its mandatory elements and what was asked of the rest. */
export type SubsettedResource = Pick<DirectoryResource, 'resourceType' | 'id'> & {
  meta: Meta;
  [element: string]: unknown;
};

/** The element names of an `_elements` value, each once in the order given, or the reason it is bad. */
export function parseElements(value: string): Result<string[]> {
  const names = value.split(',');
  if (names.length > MAX_ELEMENTS) return fail(`takes at most ${MAX_ELEMENTS} element names`);
  const elements: string[] = [];
  for (const name of names) {
    if (!ELEMENT_NAME.test(name))
      return fail('must be top-level element names separated by commas (e.g. name,telecom)');
    if (!elements.includes(name)) elements.push(name);
  }
  return ok(elements);
}

/** The resource with only the elements asked for (and the mandatory ones), tagged SUBSETTED. */
export function subsetOf(resource: DirectoryResource, elements: ReadonlyArray<string>): SubsettedResource {
  const whole: Readonly<Record<string, unknown>> = resource;
  const subset: SubsettedResource = {
    resourceType: resource.resourceType,
    id: resource.id,
    meta: { ...resource.meta, tag: [...(resource.meta.tag ?? []), SUBSETTED] },
  };
  // The resource's own elements in its order; a name asked for that it does not fill selects nothing.
  for (const [name, value] of Object.entries(whole)) {
    if (elements.includes(name) && !(MANDATORY as readonly string[]).includes(name)) subset[name] = value;
  }
  return subset;
}
