import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { MAX_DOCTOR_ID_LENGTH, type Dataset } from '@directory/search';
import { readDoctorForwards } from '@directory/event-store';
import {
  assertNever,
  fail,
  ok,
  safeParameterName,
  type ParameterError,
  type Result,
  doctorPageSchema,
  FACET_LIMIT_DEFAULT,
  FACET_LIMIT_MAX,
  FACET_NAMES,
  doctorSchema,
  filterDescriptions,
  parseSearchToolInput,
  parseSpecialtiesToolInput,
  searchToolInputSchema,
  specialtiesPageSchema,
  specialtiesToolInputSchema,
  type DoctorRef,
  type Doctor,
  type MergeForward,
} from '@directory/domain';
import { renderDoctor, renderPage } from './doctor-text.js';
import { renderSpecialties } from './specialty-text.js';
import { advertisedInputSchema, type ToolArguments } from './tool-input.js';
import { failedCall, invalidArguments, toolError } from './tool-result.js';

export const SERVER_INFO = { name: 'doctor-directory', version: '1.5.0' } as const;

// The tools only read published records of this service's own index: no side effects, same answer
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

const FILTERS = filterDescriptions()
  .map(({ name, required, description }) => `${name}${required ? ' (required)' : ''}: ${description}`)
  .join(' ');

const SEARCH_DESCRIPTION = `Search the published doctor and clinic directory of one country dataset. ${RECORD} ${WHATSAPP}
Filters (a record must match every one given): ${FILTERS} limit is 1-100 (default 25).
Results come in a fixed order (name, then id). By specialty: get the code from list_specialties (e.g. "pediatrics" for Kinderarzt, pediatra or paediatrician) and pass it as specialty. Near a place: give near as "latitude,longitude" (and optionally radius in metres); results then come nearest first (then id), each with distanceMeters, the distance in whole metres. Paging: when page.hasMore is true, call search_doctors again with exactly the same filters plus cursor = page.nextCursor; repeat until hasMore is false (nextCursor null). Paging visits every matching record exactly once. Facets: facets = "specialty,city" (any of ${FACET_NAMES.join(', ')}) adds facets, each value with count, how many records the search finds with that value as the argument of the same name (every other filter kept), most first; facetLimit (1-${FACET_LIMIT_MAX}, default ${FACET_LIMIT_DEFAULT}) values each. No results: suggestions (on unless suggestions = false) lists what finds records instead (kind query: a corrected q; radius: a wider radius; city: the nearest city with matches), each with resultCount; call search_doctors again with that one argument changed. Invalid arguments return an error naming each bad argument.`;

const GET_DESCRIPTION = `Fetch one published Doctor record by its id (from a search_doctors result) or by its profile URL on the directory's website (profileUrl; translated URLs such as /de/aerzte/... or /es/medicos/... resolve to the same record). ${RECORD} ${WHATSAPP}
The URL is only parsed, never fetched: URLs on other hosts, with credentials, query strings or fragments, and non-profile paths are rejected. An unknown, suppressed, closed or unpublished record returns a not-found error. An id merged into another record (the same practice listed twice), or that record's profile URL, returns the record that survives, with merge saying which id was merged away and which one answers: use the answering id from then on.`;

const getDoctorInputSchema = z.object({
  doctorId: z
    .string()
    .min(1)
    .max(MAX_DOCTOR_ID_LENGTH)
    .describe(
      'The id from a search_doctors result, or a complete profile URL of the directory website (not URL-encoded), e.g. https://www.doctor-directory.example/de/aerzte/de/berlin/praxis-mueller',
    ),
});

const getDoctorOutputSchema = z.strictObject({
  doctor: doctorSchema,
  merge: z
    .strictObject({
      from: z
        .string()
        .describe(
          'The id merged away, no longer its own record: the id asked for, or the one behind the profile URL asked for',
        ),
      into: z.string().describe('The id of the record that survives, the one returned'),
      mergedAt: z.string().describe('When that id was merged away (ISO 8601)'),
    })
    .optional()
    .describe('Present when the record asked for was merged into another one and get_doctor followed it'),
});

const LIST_SPECIALTIES_DESCRIPTION = `List the specialty codes that the specialty argument of search_doctors accepts: stable, language-independent codes (e.g. "dentistry", "general-practice", "pediatrics") mapped from the published primary types and specialties, each with its label in lang (en, de, es, fr, it or pt; default en). Map what the user asks for ("Zahnarzt", "children's doctor") to a code from this list, then search with it; never invent a code.
Without country: every code, in code order. With country: only the codes that published records of that dataset carry, each with count (how many records search_doctors finds with it), most records first.`;

// Built once: a server (and so the tool registration) is created per request, and turning the zod
// schemas into JSON Schema is the costly part of it.
const SEARCH_INPUT = advertisedInputSchema(searchToolInputSchema);
const GET_INPUT = advertisedInputSchema(getDoctorInputSchema);
const SPECIALTIES_INPUT = advertisedInputSchema(specialtiesToolInputSchema);

/**
 * A fresh MCP server holding the read-only tools over the one query service (the same
 * `Directory` as the HTTP API). Stateless: the transport layer builds one per HTTP request.
 */
export function createToolServer(dataset: Dataset, log: FastifyBaseLogger): McpServer {
  const { directory, db } = dataset;

  /**
   * The survivor of a merged-away record (asked for by id or by its profile URL), when it is served:
   * what get_doctor answers instead.
   */
  async function followMerge(
    doctorId: string,
    ref: DoctorRef,
  ): Promise<{ forward: MergeForward; doctor: Doctor } | null> {
    const forward = (await readDoctorForwards(db, new Map([[doctorId, ref]]))).get(doctorId);
    if (forward === undefined) return null;
    const survivor = await directory.getDoctor(forward.mergedInto);
    return survivor.status === 'found' ? { forward, doctor: survivor.doctor } : null;
  }

  const server = new McpServer(SERVER_INFO, {
    instructions: `Read-only access to a directory of published doctors' practices and clinics in Europe and Mexico. Use search_doctors to find records (country required; page with cursor), get_doctor to fetch one by id or profile URL, and list_specialties for the codes of search_doctors' specialty filter. ${WHATSAPP}`,
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
      if (!parsed.ok) return invalidArguments('search_doctors', parsed.error);
      try {
        // The edge reads the clock: openNow means the time this call is served.
        const page = await directory.searchDoctors(parsed.value, new Date());
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
      if (!parsed.ok) return invalidArguments('get_doctor', parsed.error);
      try {
        const result = await directory.getDoctor(parsed.value);
        switch (result.status) {
          case 'invalid':
            return invalidArguments('get_doctor', [{ parameter: 'doctorId', reason: result.reason }]);
          case 'not-found': {
            const followed = await followMerge(parsed.value, result.ref);
            if (followed === null) return toolError('No current published record has this id.');
            const { forward, doctor } = followed;
            const merge = { from: forward.placeId, into: forward.mergedInto, mergedAt: forward.mergedAt };
            const note = `Followed a merge: ${merge.from} was merged into ${merge.into} on ${merge.mergedAt}; this is ${merge.into}, use that id from now on.`;
            return {
              structuredContent: { doctor, merge },
              content: [{ type: 'text', text: `${note}\n\n${renderDoctor(doctor)}` }],
            };
          }
          case 'found':
            return {
              structuredContent: { doctor: result.doctor },
              content: [{ type: 'text', text: renderDoctor(result.doctor) }],
            };
          default:
            return assertNever(result);
        }
      } catch (error) {
        return failedCall('get_doctor', error, log);
      }
    },
  );

  server.registerTool(
    'list_specialties',
    {
      title: 'List specialties',
      description: LIST_SPECIALTIES_DESCRIPTION,
      inputSchema: SPECIALTIES_INPUT,
      outputSchema: specialtiesPageSchema,
      annotations: { title: 'List specialties', ...READ_ONLY },
    },
    async (args: ToolArguments) => {
      const parsed = parseSpecialtiesToolInput(args);
      if (!parsed.ok) return invalidArguments('list_specialties', parsed.error);
      try {
        const list = await directory.listSpecialties(parsed.value);
        return { structuredContent: list, content: [{ type: 'text', text: renderSpecialties(list) }] };
      } catch (error) {
        return failedCall('list_specialties', error, log);
      }
    },
  );

  return server;
}

// The shape checks only; what a valid id or profile URL is stays the query service's rule.
function parseDoctorIdArgument(args: ToolArguments): Result<string, ParameterError[]> {
  const errors: ParameterError[] = Object.keys(args)
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
  if (errors.length > 0 || typeof doctorId !== 'string') return fail(errors);
  return ok(doctorId);
}
