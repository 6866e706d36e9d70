import { subsetOf, type SubsettedResource } from './elements.js';
import type { DirectoryResource, DirectoryResourceType } from './fhir-resources.js';
import { resourceOf, type MappingOptions } from './record-resources.js';
import type { ResultParameters } from './search-translation.js';
import type { ServedRecord } from './served-record.js';

/**
 * A search's answer as a FHIR searchset Bundle: each record's resource of the searched type
 * (search.mode match), then what `_include` and `_revinclude` add from the same record (mode include;
 * the three resources of a record reference each other, resource-ids.ts). Paging is Bundle.link
 * `next`: the same parameters with `_cursor`, the API's signed cursor of the next page. `_elements`
 * subsets the matches only: included resources come whole (FHIR applies it to the searched type).
 */

export type BundleEntry = {
  fullUrl: string;
  resource: DirectoryResource | SubsettedResource;
  search: { mode: 'match' | 'include' };
};

export type SearchBundle = {
  resourceType: 'Bundle';
  type: 'searchset';
  total?: number;
  link: Array<{ relation: 'self' | 'next'; url: string }>;
  entry?: BundleEntry[];
};

export type SearchBundleInput = {
  type: DirectoryResourceType;
  /** The FHIR base, e.g. https://api.example.com/fhir/R4. */
  baseUrl: string;
  records: ReadonlyArray<ServedRecord>;
  result: ResultParameters;
  selfParameters: ReadonlyArray<readonly [string, string]>;
  cursor?: string;
  nextCursor: string | null;
  total?: number;
};

export function searchBundle(input: SearchBundleInput, options: MappingOptions): SearchBundle {
  const { type, baseUrl, result } = input;
  const matches: BundleEntry[] = [];
  const included = new Map<string, BundleEntry>();
  for (const record of input.records) {
    const resource = resourceOf(type, record, options);
    if (resource === null) continue;
    matches.push(
      entryOf(
        baseUrl,
        result.elements === undefined ? resource : subsetOf(resource, result.elements),
        'match',
      ),
    );
    const extra = [
      ...result.include.map((include) => include.target),
      ...result.revinclude.map((include) => include.source),
    ];
    for (const extraType of extra) {
      const other = resourceOf(extraType, record, options);
      if (other === null) continue;
      const entry = entryOf(baseUrl, other, 'include');
      if (!included.has(entry.fullUrl)) included.set(entry.fullUrl, entry);
    }
  }
  const entries = [...matches, ...included.values()];
  const link: SearchBundle['link'] = [
    {
      relation: 'self',
      url: searchUrl(baseUrl, type, input.selfParameters, input.cursor),
    },
  ];
  if (input.nextCursor !== null) {
    link.push({ relation: 'next', url: searchUrl(baseUrl, type, input.selfParameters, input.nextCursor) });
  }
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(input.total === undefined ? {} : { total: input.total }),
    link,
    ...(entries.length === 0 || result.summaryCount ? {} : { entry: entries }),
  };
}

function entryOf(baseUrl: string, resource: BundleEntry['resource'], mode: 'match' | 'include'): BundleEntry {
  return { fullUrl: `${baseUrl}/${resource.resourceType}/${resource.id}`, resource, search: { mode } };
}

/** The search's URL with its parameters (form-encoded, as a GET would send them) and the page's cursor. */
export function searchUrl(
  baseUrl: string,
  type: DirectoryResourceType,
  parameters: ReadonlyArray<readonly [string, string]>,
  cursor?: string,
): string {
  const query = new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, value]));
  if (cursor !== undefined) query.append('_cursor', cursor);
  const text = query.toString();
  return `${baseUrl}/${type}${text === '' ? '' : `?${text}`}`;
}
