import type { FastifyInstance } from 'fastify';
import {
  decodeChangesCursor,
  feedFromFence,
  parseChangesParams,
  snapshotStart,
  toChangesPage,
  type ApiKeyMode,
  type ChangesStart,
  type CountryCode,
  type FeedCursor,
} from '@directory/domain';
import { feedFenceAt, readFeedPage, readSnapshotHorizon } from '@directory/event-store';
import { ProblemError } from '@directory/http-server';
import { requireApiKey } from '@directory/keyed-access';
import { datasetOf, type Dataset, type Datasets } from '@directory/search';
import { documentOnly, parsedQuery } from '../query.js';
import { API_KEY_SECURITY, errorResponses, routeTags } from '../route-docs.js';
import { changesPageSchema, changesQuerySchema } from './changes.schemas.js';

export type ChangesRouteOptions = {
  /** The feed is read from the database of the key's mode's dataset. */
  datasets: Datasets;
  /** Signs `since` cursors (config CURSOR_SECRET; a MAC context of their own, apart from search cursors). */
  cursorSecret: string;
};

const CHANGES_DESCRIPTION = `API 1.2. Every record that became served, changed or stopped being served in one dataset, so a program can keep a full mirror in sync instead of re-crawling search.

**Start**: without \`since\` the feed starts from a snapshot of the dataset: every record served now, as \`upsert\` changes, and no removals. Then, following the cursors, whatever changed after the start: a record you received that stops being served comes as \`delete\`.

**Start at an instant** (API 1.3): \`since=<instant>\` (ISO 8601 with a UTC offset or Z) starts with every change made after that instant (and possibly a few made shortly before it), then cursors as usual. Such a feed's entries (and those of the pages its cursors lead to) carry \`changedAt\`. An instant older than the feed's clock keeps (35 days) starts at the beginning of the feed: every record ever served, removals included; take an export instead.

**Resume**: send \`page.nextCursor\` as \`since\`, with the same country. \`nextCursor\` is always present; keep the last one and ask again later (poll) to get what changed meanwhile. When nothing changed it is the cursor you sent.

**Order and guarantees**: the snapshot comes in \`id\` order, then changes in a fixed order (by the store transaction that made them), each as the record's current state: a record changed again after you read it comes again later with its newest state, so applying every change in order (\`upsert\` = put, \`delete\` = remove, by \`id\`) leaves the mirror equal to what search serves. No change is ever skipped, and a consumer following the cursors never gets the same state of a record twice. A change becomes visible once every transaction that started before it has finished (normally well under a second).

**Removals**: a record that stops being served after your start (suppressed, closed, unpublished, or moved to another dataset) comes as \`delete\` with \`doctor: null\`. Records that stopped being served before your start, or were never served in the dataset, do not appear. A \`delete\` for an \`id\` you do not hold (a record served and removed while you were starting) is to be ignored.

**Merged records** (API 1.4): with \`merges=true\`, a record merged away into another record (the same practice listed twice) comes as \`merged\` with \`mergedInto\`, the id of the record that survives (the end of a chain of merges), instead of \`delete\`: remove it and point its id at the survivor. Without \`merges\` it comes as \`delete\`, as before.

Cursors are opaque, signed and bound to the country and to the key's mode (API 1.3: a cursor a test key received is refused with a live key, and the reverse); a tampered, malformed or foreign cursor, or one sent with another country or a key of the other mode, is rejected with 400 (\`errors[].parameter\` = \`since\`). Unknown or repeated parameters are rejected with 400.`;

export function changeRoutes(
  app: FastifyInstance,
  options: ChangesRouteOptions,
  done: (error?: Error) => void,
): void {
  const { datasets, cursorSecret } = options;

  app.get(
    '/changes',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: routeTags('changes'),
        operationId: 'listChanges',
        summary: 'Changes feed of one dataset (mirror sync)',
        description: CHANGES_DESCRIPTION,
        security: API_KEY_SECURITY,
        querystring: changesQuerySchema,
        response: { 200: changesPageSchema, ...errorResponses([400, 401, 429, 503]) },
      },
    },
    async (request) => {
      const { country, start, limit, merges } = parsedQuery(request, parseChangesParams);
      const { mode } = requireApiKey(request);
      const { db } = datasetOf(datasets, request);
      const from = await feedCursorOf(db, { country, mode }, start, cursorSecret);
      const read = await readFeedPage(db, { country, from, limit });
      return toChangesPage(read, limit, country, from, cursorSecret, mode, { merges });
    },
  );
  done();
}

/**
 * Where a read of the feed starts (also for /fhir/R4's history, whose `_cursor` is this `since`): a
 * refused cursor is a 400 naming `parameter`.
 */
export async function feedCursorOf(
  db: Dataset['db'],
  { country, mode }: { country: CountryCode; mode: ApiKeyMode },
  start: ChangesStart,
  cursorSecret: string,
  parameter = 'since',
): Promise<FeedCursor> {
  switch (start.kind) {
    case 'snapshot':
      // A new consumer starts from a snapshot of what is served now, never from the feed's history:
      // that would list every record ever served here and later suppressed, closed or unpublished.
      return snapshotStart(await readSnapshotHorizon(db, country));
    case 'instant':
      return feedFromFence(await feedFenceAt(db, start.at));
    case 'cursor': {
      // Bound to the key's mode too: a sandbox cursor's positions mean nothing in the live feed.
      const decoded = decodeChangesCursor(start.token, country, cursorSecret, mode);
      if (!decoded.ok) {
        throw new ProblemError('invalidParameter', 'The since cursor cannot be used with this request.', [
          { parameter, reason: decoded.error },
        ]);
      }
      return decoded.value;
    }
  }
}
