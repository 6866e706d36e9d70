import type { FastifyInstance } from 'fastify';
import {
  decodeChangesCursor,
  parseChangesParams,
  snapshotStart,
  toChangesPage,
  type FeedCursor,
} from '@directory/domain';
import { readFeedPage, readSnapshotHorizon } from '@directory/event-store';
import { ProblemError } from '@directory/http-server';
import { datasetOf, type Datasets } from '@directory/search';
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

**Resume**: send \`page.nextCursor\` as \`since\`, with the same country. \`nextCursor\` is always present; keep the last one and ask again later (poll) to get what changed meanwhile. When nothing changed it is the cursor you sent.

**Order and guarantees**: the snapshot comes in \`id\` order, then changes in a fixed order (by the store transaction that made them), each as the record's current state: a record changed again after you read it comes again later with its newest state, so applying every change in order (\`upsert\` = put, \`delete\` = remove, by \`id\`) leaves the mirror equal to what search serves. No change is ever skipped, and a consumer following the cursors never gets the same state of a record twice. A change becomes visible once every transaction that started before it has finished (normally well under a second).

**Removals**: a record that stops being served after your start (suppressed, closed, unpublished, or moved to another dataset) comes as \`delete\` with \`doctor: null\`. Records that stopped being served before your start, or were never served in the dataset, do not appear. A \`delete\` for an \`id\` you do not hold (a record served and removed while you were starting) is to be ignored.

Cursors are opaque, signed and bound to the country; a tampered, malformed or foreign cursor, or one sent with another country, is rejected with 400 (\`errors[].parameter\` = \`since\`). Unknown or repeated parameters are rejected with 400.`;

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
      const { country, since, limit } = parsedQuery(request, parseChangesParams);
      const { db } = datasetOf(datasets, request);
      let from: FeedCursor;
      if (since === undefined) {
        // A new consumer starts from a snapshot of what is served now, never from the feed's history:
        // that would list every record ever served here and later suppressed, closed or unpublished.
        from = snapshotStart(await readSnapshotHorizon(db, country));
      } else {
        const decoded = decodeChangesCursor(since, country, cursorSecret);
        if (!decoded.ok) {
          throw new ProblemError('invalidParameter', 'The since cursor cannot be used with this request.', [
            { parameter: 'since', reason: decoded.error },
          ]);
        }
        from = decoded.value;
      }
      const read = await readFeedPage(db, { country, from, limit });
      return toChangesPage(read, limit, country, from, cursorSecret);
    },
  );
  done();
}
