import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MAX_DOCTOR_ID_LENGTH, type Directory } from '@directory/directory';
import {
  safeParameterName,
  doctorPageSchema,
  doctorSchema,
  parseSearchToolInput,
  searchToolInputSchema,
} from '@directory/domain';
import { renderDoctor, renderPage } from './doctor-text.js';
import { advertisedInputSchema, type ToolArguments } from './tool-input.js';
import { failedCall, invalidArguments, toolError } from './tool-result.js';

export const SERVER_INFO = { name: 'doctor-directory', version: '1.1.0' } as const;

// Both tools only read published records of this service's own index: no side effects, same answer
// for the same call, no access to anything outside the directory.
const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const RECORD =
  "A Doctor record is one published doctor's practice or clinic: id, name, legal name, address, location, phone (E.164) and phone type, additional phones, email, website, Google Maps URL, primary type, specialties, rating, review count, whatsappEligible, verified, working hours and the canonical profileUrl. Every field is always present; null (or an empty list) means not published. Do not infer data from neighbouring fields.";
const WHATSAPP =
  'whatsappEligible is a technical reachability signal only (the published primary phone appears able to receive WhatsApp messages); it is NOT consent, an opt-in or permission to send marketing.';

const SEARCH_DESCRIPTION = `Search the published doctor and clinic directory of one country dataset. ${RECORD} ${WHATSAPP}
country is required: one of de, es, fr, gb, it, mx, pt (live data in de, es, it, pt; fr, gb, mx return an empty page). Optional filters: city (lowercase slug such as "berlin" or "san-sebastian"), q (literal words matched case- and accent-insensitively in name, legal name, city, primary type and specialties; the last word may be a prefix), whatsapp (true/false), verified (true/false). limit is 1-100 (default 25).
Results come in a fixed order (name, then id). Paging: when page.hasMore is true, call search_doctors again with exactly the same filters plus cursor = page.nextCursor; repeat until hasMore is false (nextCursor null). Paging visits every matching record exactly once. Invalid arguments return an error naming each bad argument.`;

const GET_DESCRIPTION = `Fetch one published Doctor record by its id (from a search_doctors result) or by its profile URL on the directory's website (profileUrl; translated URLs such as /de/aerzte/... or /es/medicos/... resolve to the same record). ${RECORD} ${WHATSAPP}
The URL is only parsed, never fetched: URLs on other hosts, with credentials, query strings or fragments, and non-profile paths are rejected. An unknown, suppressed, closed or unpublished record returns a not-found error.`;

const getDoctorInputSchema = z.object({
  doctorId: z
    .string()
    .min(1)
    .max(MAX_DOCTOR_ID_LENGTH)
    .describe(
      'The id from a search_doctors result, or a complete profile URL of the directory website (not URL-encoded), e.g. https://www.doctor-directory.example/de/aerzte/de/berlin/praxis-mueller',
    ),
});

const getDoctorOutputSchema = z.strictObject({ doctor: doctorSchema });

// Built once: a server (and so the tool registration) is created per request, and turning the zod
// schemas into JSON Schema is the costly part of it.
const SEARCH_INPUT = advertisedInputSchema(searchToolInputSchema);
const GET_INPUT = advertisedInputSchema(getDoctorInputSchema);

/**
 * A fresh MCP server holding the two read-only tools over the one query service (the same
 * `Directory` as the HTTP API). Stateless: the transport layer builds one per HTTP request.
 */
export function createToolServer(directory: Directory, log: FastifyBaseLogger): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: `Read-only access to a directory of published doctors' practices and clinics in Europe and Mexico. Use search_doctors to find records (country required; page with cursor) and get_doctor to fetch one by id or profile URL. ${WHATSAPP}`,
  });

  server.registerTool(
    'search_doctors',
    {
      title: 'Search doctors',
      description: SEARCH_DESCRIPTION,
      inputSchema: SEARCH_INPUT,
      outputSchema: doctorPageSchema,
      annotations: { title: 'Search doctors', ...READ_ONLY },
    },
    async (args: ToolArguments) => {
      const parsed = parseSearchToolInput(args);
      if (!parsed.ok) return invalidArguments('search_doctors', parsed.errors);
      try {
        const page = await directory.searchDoctors(parsed.value);
        return { structuredContent: page, content: [{ type: 'text', text: renderPage(page) }] };
      } catch (error) {
        return failedCall('search_doctors', error, log);
      }
    },
  );

  server.registerTool(
    'get_doctor',
    {
      title: 'Get doctor',
      description: GET_DESCRIPTION,
      inputSchema: GET_INPUT,
      outputSchema: getDoctorOutputSchema,
      annotations: { title: 'Get doctor', ...READ_ONLY },
    },
    async (args: ToolArguments) => {
      const parsed = parseDoctorIdArgument(args);
      if (!parsed.ok) return invalidArguments('get_doctor', parsed.errors);
      try {
        const result = await directory.getDoctor(parsed.doctorId);
        switch (result.status) {
          case 'invalid':
            return invalidArguments('get_doctor', [{ parameter: 'doctorId', reason: result.reason }]);
          case 'not-found':
            return toolError('No current published record has this id.');
          case 'found':
            return {
              structuredContent: { doctor: result.doctor },
              content: [{ type: 'text', text: renderDoctor(result.doctor) }],
            };
          default: {
            const unexpected: never = result;
            throw new Error(`unexpected result ${JSON.stringify(unexpected)}`);
          }
        }
      } catch (error) {
        return failedCall('get_doctor', error, log);
      }
    },
  );

  return server;
}

type DoctorIdArgument =
  { ok: true; doctorId: string } | { ok: false; errors: Array<{ parameter: string; reason: string }> };

// The shape checks only; what a valid id or profile URL is stays the query service's rule.
function parseDoctorIdArgument(args: ToolArguments): DoctorIdArgument {
  const errors = Object.keys(args)
    .filter((name) => name !== 'doctorId')
    .map((name) => ({
      parameter: safeParameterName(name),
      reason: 'is not a known parameter (known: doctorId; names are case-sensitive)',
    }));
  const doctorId = args.doctorId;
  if (doctorId === undefined || doctorId === null) {
    errors.push({ parameter: 'doctorId', reason: 'is required' });
  } else if (typeof doctorId !== 'string') {
    errors.push({ parameter: 'doctorId', reason: 'must be a string' });
  }
  if (errors.length > 0 || typeof doctorId !== 'string') return { ok: false, errors };
  return { ok: true, doctorId };
}
