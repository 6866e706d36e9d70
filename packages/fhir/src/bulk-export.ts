import {
  COUNTRY_CODES,
  fail,
  ok,
  type CountryCode,
  type ParameterError,
  type Result,
} from '@directory/domain';
import { DIRECTORY_RESOURCE_TYPES, type DirectoryResourceType } from './fhir-resources.js';
import { INSTANT_PATTERN, SINCE_REASON } from './history.js';
import { resourceOf, type MappingOptions } from './record-resources.js';
import type { FhirParameters } from './search-translation.js';
import type { ServedRecord } from './served-record.js';

/**
 * FHIR Bulk Data `$export` at the system level (`GET /fhir/R4/$export`, docs/fhir.md "Bulk export"):
 * the kick-off's parameters, the status manifest and the NDJSON lines of the output files. The files
 * are the API's export of one dataset (one snapshot of the store, as `GET /api/v1/exports/{country}`),
 * each record as the resources read and search return; the job's `transactionTime` is where
 * `GET /fhir/R4/{type}/_history?_since=` continues it.
 */

export const BULK_EXPORT_OPERATION_DEFINITION = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export';
export const BULK_DATA_CAPABILITY = 'http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data';

/** The media type of the output files; the kick-off's `_outputFormat` may name it in any of its forms. */
export const NDJSON_FORMAT = 'application/fhir+ndjson';
const OUTPUT_FORMATS = [NDJSON_FORMAT, 'application/ndjson', 'ndjson'];

/** What the CapabilityStatement says of the operation (rest.operation). */
export const BULK_EXPORT_OPERATION = {
  name: 'export',
  definition: BULK_EXPORT_OPERATION_DEFINITION,
  documentation: `System-level Bulk Data export (GET [base]/$export with Prefer: respond-async) of one dataset: _typeFilter must name it as address-country (e.g. Organization?address-country=ES; no other search parameter), the same in every filter; _type any of ${DIRECTORY_RESOURCE_TYPES.join(', ')} (default all); _since an instant (resources whose lastUpdated is at or after it); _outputFormat ${OUTPUT_FORMATS.join(', ')}. The job is complete when the kick-off answers (one snapshot of the store): the status URL answers the manifest at once, DELETE on it ends the job. Files are NDJSON, one per type, behind the same API key; continue with [type]/_history?address-country=..&_since=<transactionTime>.`,
};

export type BulkExportRequest = {
  /** The dataset: the `address-country` every `_typeFilter` names. */
  country: CountryCode;
  /** The types exported, in the order asked (`_type`), else all three. */
  types: DirectoryResourceType[];
  /** `_since`: only resources last updated at or after it. */
  since?: Date;
};

const KNOWN = new Set(['_outputFormat', '_type', '_since', '_typeFilter']);
// Lists: the Bulk Data specification lets a client repeat these or comma-separate their values.
const LISTS = new Set(['_type', '_typeFilter']);
const FILTER_REASON = 'must be Type?address-country=XX, e.g. Organization?address-country=ES';

/**
 * The kick-off's parameters and its `Prefer` header. An unknown parameter is ignored (a 400 when
 * `strict`), as searches do; a repeated single parameter, an unknown type or output format, a filter on
 * anything but `address-country`, or filters naming several datasets are a 400 naming the parameter.
 */
export function parseBulkExportKickOff(
  parameters: FhirParameters,
  options: { prefer: string; strict: boolean },
): Result<BulkExportRequest, ParameterError[]> {
  const errors: ParameterError[] = [];
  if (!preferTokens(options.prefer).includes('respond-async'))
    errors.push({ parameter: 'Prefer', reason: 'must be respond-async (the export is asynchronous)' });
  const single = new Map<string, string>();
  const lists = new Map<string, string[]>();
  for (const [name, value] of parameters) {
    if (!KNOWN.has(name)) {
      if (options.strict) errors.push({ parameter: name, reason: 'is not a parameter this server supports' });
      continue;
    }
    if (LISTS.has(name)) lists.set(name, [...(lists.get(name) ?? []), ...value.split(',')]);
    else if (single.has(name)) errors.push({ parameter: name, reason: 'must be given once' });
    else single.set(name, value);
  }

  const format = single.get('_outputFormat');
  if (format !== undefined && !OUTPUT_FORMATS.includes(format))
    errors.push({ parameter: '_outputFormat', reason: `must be one of ${OUTPUT_FORMATS.join(', ')}` });
  const since = single.get('_since');
  const at = since === undefined ? undefined : Date.parse(since);
  if (since !== undefined && (!INSTANT_PATTERN.test(since) || !Number.isFinite(at)))
    errors.push({ parameter: '_since', reason: SINCE_REASON });

  const asked = lists.get('_type');
  const types: DirectoryResourceType[] = [];
  let typesKnown = true;
  for (const name of asked ?? DIRECTORY_RESOURCE_TYPES) {
    const type = directoryTypeOf(name);
    if (type === undefined) {
      typesKnown = false;
      errors.push({
        parameter: '_type',
        reason: `${name} is not one of ${DIRECTORY_RESOURCE_TYPES.join(', ')}`,
      });
    } else if (!types.includes(type)) types.push(type);
  }

  const countries = new Set<CountryCode>();
  for (const filter of lists.get('_typeFilter') ?? []) {
    const parsed = parseTypeFilter(filter);
    if (!parsed.ok) {
      errors.push({ parameter: '_typeFilter', reason: parsed.error });
      continue;
    }
    // A filter of a type not exported would select nothing: a mistake worth saying.
    if (typesKnown && !types.includes(parsed.value.type))
      errors.push({ parameter: '_typeFilter', reason: `${parsed.value.type} is not in _type` });
    countries.add(parsed.value.country);
  }
  if (countries.size > 1)
    errors.push({
      parameter: '_typeFilter',
      reason: 'must name one dataset (one address-country) in every filter',
    });
  const [country] = countries;
  if (country === undefined && !errors.some((error) => error.parameter === '_typeFilter'))
    errors.push({
      parameter: '_typeFilter',
      reason: 'is required: the dataset, e.g. Organization?address-country=ES (one dataset per export)',
    });
  if (errors.length > 0 || country === undefined) return fail(errors);
  return ok({ country, types, ...(at === undefined ? {} : { since: new Date(at) }) });
}

/** `Type?address-country=XX`: the type and the dataset it names, its query URL-encoded or not. */
function parseTypeFilter(filter: string): Result<{ type: DirectoryResourceType; country: CountryCode }> {
  const mark = filter.indexOf('?');
  if (mark < 0) return fail(FILTER_REASON);
  const name = filter.slice(0, mark);
  const type = directoryTypeOf(name);
  if (type === undefined) return fail(`${name} is not one of ${DIRECTORY_RESOURCE_TYPES.join(', ')}`);
  const query = [...new URLSearchParams(filter.slice(mark + 1))];
  const [first] = query;
  if (query.length !== 1 || first === undefined || first[0] !== 'address-country')
    return fail(`${name}: only address-country is supported in a filter (${FILTER_REASON})`);
  const country = first[1].toLowerCase();
  if (!(COUNTRY_CODES as ReadonlyArray<string>).includes(country))
    return fail(`${name}?address-country must be one of ${COUNTRY_CODES.join(', ')}`);
  return ok({ type, country: country as CountryCode });
}

function directoryTypeOf(name: string): DirectoryResourceType | undefined {
  return DIRECTORY_RESOURCE_TYPES.find((type) => type === name);
}

/** The preferences of a `Prefer` header, lowercased, without their parameters. */
function preferTokens(prefer: string): string[] {
  return prefer.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
}

/** A job as its manifest states it (the rest of it is the route's: owner, snapshot, expiry). */
export type BulkExportJobOutput = {
  /** When the snapshot was taken, on the store's clock: the `_since` of the history that continues it. */
  transactionTime: string;
  /** The kick-off's URL. */
  request: string;
  types: ReadonlyArray<DirectoryResourceType>;
  /** Resources of each type in the snapshot (one per served record). */
  counts: Readonly<Partial<Record<DirectoryResourceType, number>>>;
};

export type BulkExportManifest = {
  transactionTime: string;
  request: string;
  requiresAccessToken: true;
  output: Array<{ type: DirectoryResourceType; url: string; count: number }>;
  error: [];
};

/** The complete job's manifest: one file per type that has resources (an empty type has none). */
export function bulkExportManifest(
  job: BulkExportJobOutput,
  fileUrl: (type: DirectoryResourceType) => string,
): BulkExportManifest {
  return {
    transactionTime: job.transactionTime,
    request: job.request,
    requiresAccessToken: true,
    output: job.types
      .map((type) => ({ type, url: fileUrl(type), count: job.counts[type] ?? 0 }))
      .filter((file) => file.count > 0),
    error: [],
  };
}

/** A page of records as NDJSON lines of one type, each the resource read returns, newline-terminated. */
export function ndjsonLinesOf(
  type: DirectoryResourceType,
  records: ReadonlyArray<ServedRecord>,
  options: MappingOptions,
): string {
  let text = '';
  for (const record of records) {
    const resource = resourceOf(type, record, options);
    if (resource !== null) text += `${JSON.stringify(resource)}\n`;
  }
  return text;
}
