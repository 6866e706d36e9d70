import type { FastifyInstance } from 'fastify';
import type { Directory } from '@directory/search';
import { parseSpecialtiesParams } from '@directory/domain';
import { documentOnly, parsedQuery } from '../query.js';
import { API_KEY_SECURITY, errorResponses, routeTags } from '../route-docs.js';
import { specialtiesQuerySchema, specialtyListComponent } from './specialties.schemas.js';

const SPECIALTIES_DESCRIPTION = `API 1.2. The specialty codes that search's \`specialty\` parameter accepts: stable, language-independent codes mapped from the published primary types and specialties, each with its label in \`lang\` (en, de, es, fr, it or pt; default en).

**Without \`country\`**: the whole vocabulary, in code order, as \`{code, label}\`.

**With \`country\`**: only the codes carried by published records of that dataset, each with \`count\` (the records \`specialty=<code>\` finds there), most records first, then code; fr, gb and mx list none.

Unknown or repeated parameters are rejected with 400.`;

export function specialtyRoutes(
  app: FastifyInstance,
  options: { directory: Directory },
  done: (error?: Error) => void,
): void {
  const { directory } = options;

  app.get(
    '/specialties',
    {
      validatorCompiler: documentOnly,
      schema: {
        tags: routeTags('specialties'),
        operationId: 'listSpecialties',
        summary: 'Specialty codes with labels, and counts per dataset',
        description: SPECIALTIES_DESCRIPTION,
        security: API_KEY_SECURITY,
        querystring: specialtiesQuerySchema,
        response: { 200: specialtyListComponent, ...errorResponses([400, 401, 429, 503]) },
      },
    },
    async (request) => {
      return directory.listSpecialties(parsedQuery(request, parseSpecialtiesParams));
    },
  );
  done();
}
