import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { datasetOf, type Datasets } from '@directory/search';
import { readDoctorForwards } from '@directory/event-store';
import {
  MAX_BATCH_IDS,
  MAX_IDS_LENGTH,
  assertNever,
  filterDescriptions,
  withMergedIds,
  withSubstitutedEntries,
  type MergeForward,
  parseBatchGetQuery,
  parseDoctorsQuery,
  type RecordShape,
} from '@directory/domain';
import { ProblemError } from '@directory/http-server';
import { answerWith, writerFor } from '../../serializer.js';
import { keyedGetOptions } from '../keyed-get.js';
import { parsedQuery, parsedRecordShape } from '../query.js';
import {
  batchGetQuerySchema,
  batchResponseSchema,
  doctorBatchSchemaForWriter,
  doctorPageSchemaForWriter,
  doctorParamsSchema,
  doctorResponseSchemaForWriter,
  getQuerySchema,
  getResponseSchema,
  searchQuerySchema,
  searchResponseSchema,
} from './doctors.schemas.js';

// Each operation documents one 200 schema, the record shaped by `fields`; the handler writes the answer
// with the writer of its exact shape (the full record's without `fields`), as before that schema.
const writers = (full: Parameters<typeof writerFor>[0], selected: Parameters<typeof writerFor>[0]) => {
  const [writeFull, writeSelected] = [writerFor(full), writerFor(selected)];
  return (shape: RecordShape) => (shape.fields === undefined ? writeFull : writeSelected);
};
const pageWriter = writers(doctorPageSchemaForWriter, searchResponseSchema);
const batchWriter = writers(doctorBatchSchemaForWriter, batchResponseSchema);
const recordWriter = writers(doctorResponseSchemaForWriter, getResponseSchema);

const FILTERS = filterDescriptions()
  .map(({ name, required, description }) => `- \`${name}\`${required ? ' (required)' : ''}: ${description}`)
  .join('\n');

const SEARCH_DESCRIPTION = `Searches published records of one dataset.

**Filters**: a record must match every filter given.
${FILTERS}

**Ordering**: deterministic, by folded (case- and accent-insensitive) display name, then id. With \`near\` (API 1.2): by distance from that point, nearest first, then id; each record then carries \`distanceMeters\` (whole metres, great-circle), and records without a location are left out.

**Paging**: send \`page.nextCursor\` as \`cursor\`, with the same filters, to get the next page. Cursors are opaque and signed, and bound to the filters they were issued for: a tampered, malformed or foreign cursor, or one sent with different filters, is rejected with 400 (\`errors[].parameter\` = \`cursor\`). The last page has \`hasMore: false\` and \`nextCursor: null\`. Paging through all pages returns every record exactly once, whatever \`limit\` is.

**whatsapp** filters on \`whatsappEligible\`, a technical reachability signal only: the published primary phone appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.

**Record shape** (API 1.2, search, batch get and single get): \`fields\` selects the record fields returned (\`id\` always; \`*\` for all, including the API 1.2 fields \`specialtyCodes\` and \`openingHours\` and the API 1.3 fields \`languages\`, \`acceptingNewPatients\`, \`wheelchairAccessible\` and \`insurance\`, which come back only when named); \`distanceMeters\` is not a record field and stays with \`near\`. \`lang\` gives \`profileUrl\` in that page language. Neither changes which records match: a cursor works with any \`fields\` and \`lang\`. The 200 schema is one for both shapes (API 1.3): every field but \`id\` is optional in it, and a request without \`fields\` gets every \`Doctor\` field.

**Batch get**: use \`GET /api/v1/doctors:batchGet\` (API 1.3). Deprecated, still answered the same: \`ids\` (API 1.2) = up to ${MAX_BATCH_IDS} comma-separated ids and/or complete profile URLs (each URL-encoded; at most ${MAX_IDS_LENGTH} characters in all) answers \`{ doctors, missing }\`: the records found, each once, in the order first asked for, and the entries matching no served record, as sent. With \`ids\`, only \`fields\` and \`lang\` may be given besides; a search filter, \`limit\` or \`cursor\` is refused with 400 naming it, and \`country\` is not required. A bad entry is refused with 400 naming its position (\`errors[].parameter\` = \`ids\`).

Unknown or repeated parameters are rejected with 400.`;

const BATCH_GET_DESCRIPTION = `API 1.3. Gets up to ${MAX_BATCH_IDS} records in one request: \`ids\` lists doctor ids and/or complete profile URLs (any page language, mixed freely; each entry URL-encoded; at most ${MAX_IDS_LENGTH} characters in all). The answer is \`{ doctors, missing }\`: the records found, each once, in the order first asked for (an id and a profile URL of the same record give it once), and the entries matching no served record, as sent, in request order. API 1.4: when some of \`missing\` are ids of records merged into another, \`merged\` maps each to the id of the record that survives; the profile URL of such a record finds the survivor (a profile URL names a page, not an id). \`fields\` and \`lang\` shape the records as in search; nothing else is accepted (no \`country\`: ids name their records).

A bad entry is refused with 400 naming its position (\`errors[].parameter\` = \`ids\`); unknown or repeated parameters are rejected with 400. The answer is byte for byte the one the deprecated \`GET /api/v1/doctors?ids=…\` gives for the same ids.`;

export function doctorRoutes(
  app: FastifyInstance,
  options: { datasets: Datasets },
  done: (error?: Error) => void,
): void {
  const { datasets } = options;

  app.get(
    '/doctors',
    keyedGetOptions({
      tag: 'doctors',
      operationId: 'searchDoctors',
      summary: 'Search published doctors and clinics',
      description: SEARCH_DESCRIPTION,
      querystring: searchQuerySchema,
      ok: searchResponseSchema,
    }),
    async (request, reply) => {
      const query = parsedQuery(request, parseDoctorsQuery);
      if (query.kind === 'batch') return getDoctors(request, query.ids, query.shape, reply);
      // The edge reads the clock: openNow means the time this request is served.
      const page = await datasetOf(datasets, request).directory.searchDoctors(query.request, new Date());
      answerWith(reply, pageWriter(query.request));
      return page;
    },
  );

  async function getDoctors(request: FastifyRequest, ids: string[], shape: RecordShape, reply: FastifyReply) {
    const { directory, db } = datasetOf(datasets, request);
    const result = await directory.getDoctors(ids, shape);
    if (result.status === 'invalid') {
      throw new ProblemError(
        'invalidParameter',
        'One or more entries of ids are invalid; see errors.',
        result.errors,
      );
    }
    answerWith(reply, batchWriter(shape));
    // Only a batch with entries it did not find asks the store where they went (by key).
    const { batch, refs } = result;
    if (batch.missing.length === 0) return batch;
    const missing = batch.missing.flatMap((entry) => {
      const ref = refs.get(entry);
      return ref === undefined ? [] : [[entry, ref] as const];
    });
    const forwards = await readDoctorForwards(db, new Map(missing));
    // A merged-away id stays missing and is listed in `merged`; a profile URL names a page, not an id,
    // so the page of a merged-away record is the survivor's: the batch is asked again with it.
    const idForwards = new Map<string, MergeForward>();
    const pages = new Map<string, string>();
    for (const [entry, ref] of missing) {
      const forward = forwards.get(entry);
      if (forward === undefined) continue;
      if ('placeId' in ref) idForwards.set(entry, forward);
      else pages.set(entry, forward.mergedInto);
    }
    if (pages.size === 0) return withMergedIds(batch, idForwards);
    const again = await directory.getDoctors(
      ids.map((entry) => pages.get(entry) ?? entry),
      shape,
    );
    if (again.status === 'invalid') throw new Error('A survivor id was refused as a doctor id');
    return withMergedIds(withSubstitutedEntries(ids, pages, again.batch), idForwards);
  }

  // `:` cannot occur in a doctor id (A-Z a-z 0-9 _ -), and the path has no `/` after `doctors`, so it
  // never meets `/doctors/{doctorId}`. find-my-way reads `::` as a literal colon.
  app.get(
    '/doctors::batchGet',
    keyedGetOptions({
      tag: 'doctors',
      operationId: 'batchGetDoctors',
      summary: 'Fetch up to 100 published records by id or profile URL',
      description: BATCH_GET_DESCRIPTION,
      querystring: batchGetQuerySchema,
      ok: batchResponseSchema,
    }),
    async (request, reply) => {
      const { ids, shape } = parsedQuery(request, parseBatchGetQuery);
      return getDoctors(request, ids, shape, reply);
    },
  );

  app.get(
    '/doctors/:doctorId',
    keyedGetOptions({
      tag: 'doctors',
      operationId: 'getDoctor',
      summary: 'Fetch one published record by id or profile URL',
      description:
        'Returns the same record as search does, byte for byte. API 1.2: `fields` and `lang` shape the record as in search; without them no query parameter is accepted. API 1.4: the 404 of an id merged into another record (the same practice listed twice) adds `mergedInto`, the id of the record that survives, and `mergedAt`; the profile URL of such a record answers the survivor (a profile URL names a page, not an id).',
      params: doctorParamsSchema,
      querystring: getQuerySchema,
      ok: getResponseSchema,
      errors: [400, 401, 404, 429, 503],
    }),
    async (request, reply) => {
      const shape = parsedRecordShape(request);
      const { doctorId } = request.params as { doctorId: string };
      const { directory, db } = datasetOf(datasets, request);
      const result = await directory.getDoctor(doctorId, shape);
      switch (result.status) {
        case 'invalid':
          throw new ProblemError('invalidParameter', 'The doctorId is invalid.', [
            { parameter: 'doctorId', reason: result.reason },
          ]);
        case 'not-found': {
          // Still the 404 of 1.1 (the id is no longer served); a merged-away id adds where it went.
          const forward = (await readDoctorForwards(db, new Map([[doctorId, result.ref]]))).get(doctorId);
          if (forward === undefined) {
            throw new ProblemError('notFound', 'No current published record has this id.');
          }
          // A profile URL names a page, not an id: the page of a merged-away record is the survivor's.
          if ('profile' in result.ref) {
            const survivor = await directory.getDoctor(forward.mergedInto, shape);
            if (survivor.status === 'found') {
              answerWith(reply, recordWriter(shape));
              return { doctor: survivor.doctor };
            }
          }
          throw new ProblemError('notFound', 'No current published record has this id.', [], {
            mergedInto: forward.mergedInto,
            mergedAt: forward.mergedAt,
          });
        }
        case 'found':
          answerWith(reply, recordWriter(shape));
          return { doctor: result.doctor };
        default:
          return assertNever(result);
      }
    },
  );
  done();
}
