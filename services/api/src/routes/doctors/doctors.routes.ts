import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Directory } from '@directory/directory';
import { parseSearchParams } from '@directory/domain';
import { ProblemError } from '@directory/http-kit';
import { documentOnly, rejectQueryParameters } from '../query.js';
import { API_KEY_SECURITY, errorResponses } from '../route-docs.js';
import {
  doctorPageSchema,
  doctorParamsSchema,
  doctorResponseSchema,
  searchQuerySchema,
} from './doctors.schemas.js';

// 304 has no body; the OpenAPI document describes it (and its headers) in openapi.plugin.ts.
const notModifiedSchema = z.undefined();

const SEARCH_DESCRIPTION = `Searches published records of one dataset.

**Ordering**: deterministic, by folded (case- and accent-insensitive) display name, then id.

**Paging**: send \`page.nextCursor\` as \`cursor\`, with the same filters, to get the next page. Cursors are opaque and signed, and bound to the filters they were issued for: a tampered, malformed or foreign cursor, or one sent with different filters, is rejected with 400 (\`errors[].parameter\` = \`cursor\`). The last page has \`hasMore: false\` and \`nextCursor: null\`. Paging through all pages returns every record exactly once, whatever \`limit\` is.

**q** is literal text (no query syntax): every word must occur in the name, legal name, city, primary type or specialties; the last word may be a prefix.

**Datasets**: de, es, it and pt have live data; fr, gb and mx are accepted and return an empty page.

**whatsapp** filters on \`whatsappEligible\`, a technical reachability signal only: the published primary phone appears able to receive WhatsApp messages. It is not consent, an opt-in or permission to send marketing.

Unknown or repeated parameters are rejected with 400.`;

export function doctorRoutes(
  app: FastifyInstance,
  options: { directory: Directory },
  done: (error?: Error) => void,
): void {
  const { directory } = options;

  app.get(
    '/doctors',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: ['doctors'],
        operationId: 'searchDoctors',
        summary: 'Search published doctors and clinics',
        description: SEARCH_DESCRIPTION,
        security: API_KEY_SECURITY,
        querystring: searchQuerySchema,
        response: { 200: doctorPageSchema, ...errorResponses([400, 401, 429, 503]) },
      },
    },
    async (request) => {
      const parsed = parseSearchParams(request.query as Record<string, unknown>);
      if (!parsed.ok) {
        throw new ProblemError(
          'invalidParameter',
          'One or more query parameters are invalid; see errors.',
          parsed.errors.map(({ parameter, reason }) => ({ parameter, reason })),
        );
      }
      return directory.searchDoctors(parsed.value);
    },
  );

  app.get(
    '/doctors/:doctorId',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: ['doctors'],
        operationId: 'getDoctor',
        summary: 'Fetch one published record by id or profile URL',
        description:
          'Returns the same record as search does, byte for byte. Responses carry an `ETag`; send it back in `If-None-Match` to get 304 when the record is unchanged.',
        security: API_KEY_SECURITY,
        params: doctorParamsSchema,
        response: {
          200: doctorResponseSchema,
          304: notModifiedSchema,
          ...errorResponses([400, 401, 404, 429, 503]),
        },
      },
    },
    async (request, reply) => {
      rejectQueryParameters(request);
      const { doctorId } = request.params as { doctorId: string };
      const result = await directory.getDoctor(doctorId);
      switch (result.status) {
        case 'invalid':
          throw new ProblemError('invalidParameter', 'The doctorId is invalid.', [
            { parameter: 'doctorId', reason: result.reason },
          ]);
        case 'not-found':
          throw new ProblemError('notFound', 'No current published record has this id.');
        case 'found': {
          const etag = etagOf(result.doctor);
          reply.header('etag', etag);
          if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
          return { doctor: result.doctor };
        }
        default: {
          const unexpected: never = result;
          throw new Error(`unexpected result ${JSON.stringify(unexpected)}`);
        }
      }
    },
  );
  done();
}

function etagOf(doctor: object): string {
  return `"${createHash('sha256').update(JSON.stringify(doctor)).digest('base64url').slice(0, 27)}"`;
}

// RFC 9110 §13.1.2: a list of entity tags or "*", compared weakly (W/ prefixes ignored).
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}
