import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DIRECTORY_RESOURCE_TYPES,
  SPECIALTY_RESOURCE_ID,
  capabilityStatement,
  historyBundle,
  operationOutcomeOf,
  parseElements,
  placeIdOf,
  resourceOf,
  searchBundle,
  specialtyCodeSystem,
  subsetOf,
  specialtyConceptMap,
  SPECIALTY_CONCEPT_MAP_ID,
  specialtyValueSet,
  translateHistory,
  translateInstanceHistory,
  translateSearch,
  type DirectoryResourceType,
  type FhirParameters,
  type ServedRecord,
  type TranslatedSearch,
} from '@directory/fhir';
import { toChangesPage } from '@directory/domain';
import { readFeedPage, readServedPlaces } from '@directory/event-store';
import { ProblemError, problemFor, toMappedProblem, type ProblemMapping } from '@directory/http-server';
import { requireApiKey } from '@directory/keyed-access';
import { datasetOf, type Datasets } from '@directory/search';
import { feedCursorOf } from '../changes/changes.routes.js';

/**
 * /fhir/R4 (docs/fhir.md): the served records as FHIR R4 Organization, Location and HealthcareService,
 * read-only. Everything but the CapabilityStatement and the specialty code system sits behind the API's
 * keyed access (the caller registers it on `keyed`), so keys, quotas, abuse limits and the sandbox
 * routing of test keys are /api/v1's. Searches are the API's own (search-translation.ts); errors are
 * the API's problems, rendered as OperationOutcome.
 */

export const FHIR_PREFIX = '/fhir/R4';
const FHIR_JSON = 'application/fhir+json; charset=utf-8';
const ACCEPTED_MEDIA_TYPES = ['application/fhir+json', 'application/json', 'application/*', '*/*'];
const FORMATS = ['json', 'application/json', 'application/fhir+json'];
const FORM = 'application/x-www-form-urlencoded';

export type FhirRouteOptions = {
  datasets: Datasets;
  siteOrigin: string;
  softwareVersion: string;
  mappings: ReadonlyArray<ProblemMapping>;
  /** Signs the changes feed's cursors, which the history's `_cursor` carries (as /api/v1/changes). */
  cursorSecret: string;
};

/**
 * The answers of the scope: FHIR JSON, what the client accepts (406 otherwise), and every error as an
 * OperationOutcome with the status, headers (Retry-After, WWW-Authenticate) and wording the API's
 * error handling chose.
 */
export function installFhirErrors(scope: FastifyInstance, mappings: ReadonlyArray<ProblemMapping>): void {
  scope.setErrorHandler(async (error: FastifyError, request, reply) => {
    const { problem, headers } = toMappedProblem(error, request, mappings);
    for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
    if (problem.status === 401) reply.header('www-authenticate', 'Bearer realm="doctor-directory"');
    // The API's cursor parameter is `_cursor` here.
    const errors = problem.errors.map((entry) =>
      entry.parameter === 'cursor' ? { ...entry, parameter: '_cursor' } : entry,
    );
    return sendFhir(reply.code(problem.status), operationOutcomeOf({ ...problem, errors }));
  });
  scope.addHook('onRequest', (request, _reply, next) => {
    // A 406 as the framework's own statuses are answered (the generic problem of that status).
    next(
      acceptsFhirJson(request) ? undefined : Object.assign(new Error('not acceptable'), { statusCode: 406 }),
    );
  });
}

/** A path under the FHIR base that does not exist: 404 as an OperationOutcome (once for the prefix). */
export function installFhirNotFound(scope: FastifyInstance): void {
  scope.setNotFoundHandler(async (_request, reply) =>
    sendFhir(
      reply.code(404),
      operationOutcomeOf(problemFor('notFound', 'There is no such resource; see /fhir/R4/metadata.')),
    ),
  );
}

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The media types a route of the FHIR scope answers with, when not FHIR JSON (Bulk Data's NDJSON). */
    fhirMediaTypes?: ReadonlyArray<string>;
  }
}

function acceptsFhirJson(request: FastifyRequest): boolean {
  const own = request.routeOptions.config.fhirMediaTypes;
  const format = (request.query as Record<string, unknown>)._format;
  if (typeof format === 'string' && own === undefined) return FORMATS.includes(format);
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return true;
  const accepted = own === undefined ? ACCEPTED_MEDIA_TYPES : [...own, '*/*'];
  return accept
    .split(',')
    .map((part) => (part.split(';')[0] ?? '').trim().toLowerCase())
    .some((type) => accepted.includes(type));
}

export async function sendFhir(reply: FastifyReply, body: object): Promise<FastifyReply> {
  return reply.type(FHIR_JSON).send(JSON.stringify(body));
}

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function baseUrlOf(request: FastifyRequest): string {
  return `${originOf(request)}${FHIR_PREFIX}`;
}

/** The origin of the code system's canonical URL: the website's (config SITE_ORIGIN), else this host's. */
export function canonicalOriginOf(siteOrigin: string, request: FastifyRequest): string {
  return siteOrigin === '' ? originOf(request) : siteOrigin;
}

/** What needs no key: the CapabilityStatement and the specialty code system and value set. */
export function openFhirRoutes(
  app: FastifyInstance,
  options: Pick<FhirRouteOptions, 'siteOrigin' | 'softwareVersion'>,
  done: (error?: Error) => void,
): void {
  const started = new Date().toISOString();
  app.get('/metadata', { schema: { hide: true } }, async (request, reply) =>
    sendFhir(
      reply,
      capabilityStatement({
        baseUrl: baseUrlOf(request),
        softwareVersion: options.softwareVersion,
        date: started,
      }),
    ),
  );
  app.get(`/CodeSystem/${SPECIALTY_RESOURCE_ID}`, { schema: { hide: true } }, async (request, reply) =>
    sendFhir(reply, specialtyCodeSystem(canonicalOriginOf(options.siteOrigin, request))),
  );
  app.get(`/ValueSet/${SPECIALTY_RESOURCE_ID}`, { schema: { hide: true } }, async (request, reply) =>
    sendFhir(reply, specialtyValueSet(canonicalOriginOf(options.siteOrigin, request))),
  );
  app.get(`/ConceptMap/${SPECIALTY_CONCEPT_MAP_ID}`, { schema: { hide: true } }, async (request, reply) =>
    sendFhir(reply, specialtyConceptMap(canonicalOriginOf(options.siteOrigin, request))),
  );
  done();
}

/** read, vread, search and history of the three types; behind keyed access. */
export async function keyedFhirRoutes(app: FastifyInstance, options: FhirRouteOptions): Promise<void> {
  const { datasets } = options;
  const mappingOf = (request: FastifyRequest) => ({
    siteOrigin: canonicalOriginOf(options.siteOrigin, request),
  });
  await app.register(fastifyFormbody);

  async function readRecord(request: FastifyRequest, id: string): Promise<ServedRecord> {
    const placeId = placeIdOf(id);
    if (!placeId.ok) {
      throw new ProblemError('invalidParameter', 'The id is invalid.', [
        { parameter: 'id', reason: placeId.error },
      ]);
    }
    const [record] = await datasetOf(datasets, request).directory.getVersionedRecords([placeId.value]);
    if (record === undefined) throw new ProblemError('notFound', 'No current published record has this id.');
    return record;
  }

  async function search(type: DirectoryResourceType, request: FastifyRequest, reply: FastifyReply) {
    const parameters = parametersOf(request);
    const { siteOrigin } = mappingOf(request);
    const translated = translateSearch(type, parameters, { siteOrigin, strict: strictOf(request) });
    if (!translated.ok) {
      throw new ProblemError(
        'invalidParameter',
        'One or more search parameters are invalid; see the issues.',
        translated.error,
      );
    }
    const answer = await answerSearch(translated.value, request);
    const cursor = parameters.find(([name]) => name === '_cursor')?.[1];
    const bundle = searchBundle(
      {
        type,
        baseUrl: baseUrlOf(request),
        records: answer.records,
        result: translated.value.result,
        selfParameters: translated.value.selfParameters,
        ...(cursor === undefined ? {} : { cursor }),
        nextCursor: answer.nextCursor,
        ...(answer.total === undefined ? {} : { total: answer.total }),
      },
      { siteOrigin },
    );
    return sendFhir(reply, bundle);
  }

  async function answerSearch(translated: TranslatedSearch, request: FastifyRequest) {
    const { query, result } = translated;
    const { directory } = datasetOf(datasets, request);
    switch (query.kind) {
      case 'nothing':
        return { records: [], nextCursor: null, total: result.summaryCount ? 0 : undefined };
      case 'ids': {
        const records = await directory.getVersionedRecords(query.placeIds);
        return { records, nextCursor: null, total: result.summaryCount ? records.length : undefined };
      }
      case 'search': {
        // The edge reads the clock, as /api/v1 does.
        const { records, page } = await directory.searchVersionedRecords(query.request, new Date());
        return {
          records: result.summaryCount ? [] : records,
          nextCursor: result.summaryCount ? null : page.nextCursor,
          total: page.total,
        };
      }
    }
  }

  /**
   * history-type: a page of the dataset's changes feed (as GET /api/v1/changes reads it, from its
   * snapshot, an instant or a cursor), each change with the record's current state read from the table
   * the feed reads; `next` carries the feed's cursor while the page held changes.
   */
  async function typeHistory(type: DirectoryResourceType, request: FastifyRequest, reply: FastifyReply) {
    const parameters = parametersOf(request);
    const translated = translateHistory(parameters, { strict: strictOf(request) });
    if (!translated.ok) throw invalid(translated.error);
    const { country, start, limit } = translated.value.changes;
    const { mode } = requireApiKey(request);
    const { db } = datasetOf(datasets, request);
    const from = await feedCursorOf(db, { country, mode }, start, options.cursorSecret, '_cursor');
    const page = toChangesPage(
      await readFeedPage(db, { country, from, limit }),
      limit,
      country,
      from,
      options.cursorSecret,
      mode,
    );
    const upserts = page.changes.filter((change) => change.change === 'upsert').map((change) => change.id);
    const served = new Map(
      (await readServedPlaces(db, { country, placeIds: upserts })).map((record) => [record.placeId, record]),
    );
    const cursor = parameters.find(([name]) => name === '_cursor')?.[1];
    const bundle = historyBundle(
      {
        type,
        baseUrl: baseUrlOf(request),
        // An upsert whose record stopped being served since is a removal now (the feed brings it again).
        changes: page.changes.map((change) => ({
          placeId: change.id,
          record: change.change === 'upsert' ? (served.get(change.id) ?? null) : null,
          ...(change.changedAt === undefined ? {} : { changedAt: change.changedAt }),
        })),
        selfParameters: translated.value.selfParameters,
        ...(cursor === undefined ? {} : { cursor }),
        nextCursor: page.changes.length > 0 ? page.page.nextCursor : null,
      },
      mappingOf(request),
    );
    return sendFhir(reply, bundle);
  }

  /** history-instance: the current version only (history is not kept). */
  async function instanceHistory(
    type: DirectoryResourceType,
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ) {
    const translated = translateInstanceHistory(parametersOf(request), { strict: strictOf(request) });
    if (!translated.ok) throw invalid(translated.error);
    const record = await readRecord(request, request.params.id);
    const { since } = translated.value;
    const updatedAt = record.extras.updatedAt;
    const current = since === undefined || updatedAt === null || Date.parse(updatedAt) >= since.getTime();
    const changes = current ? [{ placeId: record.doctor.id, record }] : [];
    const bundle = historyBundle(
      {
        type,
        baseUrl: baseUrlOf(request),
        instance: request.params.id,
        changes,
        selfParameters: translated.value.selfParameters,
        nextCursor: null,
        total: changes.length,
      },
      mappingOf(request),
    );
    return sendFhir(reply, bundle);
  }

  for (const type of DIRECTORY_RESOURCE_TYPES) {
    app.get(`/${type}/_history`, { schema: { hide: true } }, (request, reply) =>
      typeHistory(type, request, reply),
    );
    app.get<{ Params: { id: string } }>(
      `/${type}/:id/_history`,
      { schema: { hide: true } },
      (request, reply) => instanceHistory(type, request, reply),
    );
    app.get(`/${type}`, { schema: { hide: true } }, (request, reply) => search(type, request, reply));
    app.post(`/${type}/_search`, { schema: { hide: true } }, (request, reply) => {
      // FHIR's POST search is a form; Fastify would read a JSON body too, which FHIR does not define.
      if (!String(request.headers['content-type']).startsWith(FORM)) {
        throw Object.assign(new Error('unsupported media type'), { statusCode: 415 });
      }
      return search(type, request, reply);
    });
    app.get<{ Params: { id: string } }>(
      `/${type}/:id`,
      { schema: { hide: true } },
      async (request, reply) => {
        const elements = elementsOf(request);
        const record = await readRecord(request, request.params.id);
        return sendResource(request, reply, type, record, elements);
      },
    );
    app.get<{ Params: { id: string; versionId: string } }>(
      `/${type}/:id/_history/:versionId`,
      { schema: { hide: true } },
      async (request, reply) => {
        const elements = elementsOf(request);
        const record = await readRecord(request, request.params.id);
        // History is not kept: only the current version can be read.
        if (request.params.versionId !== String(record.version)) {
          throw new ProblemError(
            'notFound',
            'Only the current version of a resource is served; read it without _history.',
          );
        }
        return sendResource(request, reply, type, record, elements);
      },
    );
  }

  function sendResource(
    request: FastifyRequest,
    reply: FastifyReply,
    type: DirectoryResourceType,
    record: ServedRecord,
    elements?: ReadonlyArray<string>,
  ) {
    const resource = resourceOf(type, record, mappingOf(request));
    if (resource === null) throw new ProblemError('notFound', 'No current published record has this id.');
    if (resource.meta.lastUpdated !== undefined) {
      reply.header('last-modified', new Date(resource.meta.lastUpdated).toUTCString());
    }
    if (elements !== undefined) return sendFhir(reply, subsetOf(resource, elements));
    // FHIR's version tag: the API's caching answers If-None-Match with it (304 while it is current). A
    // subset is another representation: it gets the API's tag of its body instead.
    if (resource.meta.versionId !== undefined) reply.header('etag', `W/"${resource.meta.versionId}"`);
    return sendFhir(reply, resource);
  }
}

/** read's and vread's `_elements` (FHIR allows it there too): the element names, or none when not given. */
function elementsOf(request: FastifyRequest): string[] | undefined {
  const values = parametersOf(request)
    .filter(([name]) => name === '_elements')
    .map(([, value]) => value);
  const [value] = values;
  if (value === undefined) return undefined;
  if (values.length > 1) throw invalid([{ parameter: '_elements', reason: 'must be given once' }]);
  const parsed = parseElements(value);
  if (!parsed.ok) throw invalid([{ parameter: '_elements', reason: parsed.error }]);
  return parsed.value;
}

export const invalid = (errors: ReadonlyArray<{ parameter: string; reason: string }>) =>
  new ProblemError('invalidParameter', 'One or more parameters are invalid; see the issues.', [...errors]);

/** `Prefer: handling=strict`: unknown parameters are a 400 instead of being ignored. */
export const strictOf = (request: FastifyRequest) =>
  /\bhandling\s*=\s*strict\b/i.test(String(request.headers.prefer ?? ''));

/** The search parameters of a GET query string or a form-encoded POST body (both for `_search`). */
export function parametersOf(request: FastifyRequest): FhirParameters {
  const parameters: Array<[string, string]> = [];
  const add = (source: unknown) => {
    if (source === null || typeof source !== 'object') return;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string') parameters.push([name, item]);
      }
    }
  };
  add(request.query);
  if (request.method === 'POST') add(request.body);
  // _format says how to answer, not what to find.
  return parameters.filter(([name]) => name !== '_format');
}
