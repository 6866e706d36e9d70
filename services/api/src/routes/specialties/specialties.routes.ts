import { parseSpecialtiesParams } from '@directory/domain';
import { directoryListRoute } from '../keyed-get.js';
import { specialtiesQuerySchema, specialtyListComponent } from './specialties.schemas.js';

const SPECIALTIES_DESCRIPTION = `API 1.2. The specialty codes that search's \`specialty\` parameter accepts: stable, language-independent codes mapped from the published primary types and specialties, each with its label in \`lang\` (en, de, es, fr, it or pt; default en).

**Without \`country\`**: the whole vocabulary, in code order, as \`{code, label}\`.

**With \`country\`**: only the codes carried by published records of that dataset, each with \`count\` (the records \`specialty=<code>\` finds there), most records first, then code; fr, gb and mx list none.

Unknown or repeated parameters are rejected with 400.`;

export const specialtyRoutes = directoryListRoute({
  path: '/specialties',
  tag: 'specialties',
  operationId: 'listSpecialties',
  summary: 'Specialty codes with labels, and counts per dataset',
  description: SPECIALTIES_DESCRIPTION,
  querystring: specialtiesQuerySchema,
  ok: specialtyListComponent,
  parse: parseSpecialtiesParams,
  answer: (directory, params) => directory.listSpecialties(params),
});
