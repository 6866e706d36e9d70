import { z } from 'zod';
import { CHANGES_LIMIT_MAX, CURSOR_MAX_LENGTH, changesParamsSchema } from '@directory/domain';
import { doctorComponent } from '../doctors/doctors.schemas.js';

// Open response objects: clients ignore fields they do not know (docs/api.md, "Compatibility"), while
// the Doctor inside stays the closed allowlist.

export const changeEntrySchema = z
  .looseObject({
    id: z.string().meta({ description: 'The stable id of the record (as in search and single fetch)' }),
    change: z.enum(['upsert', 'delete', 'merged']).meta({
      description:
        '`upsert`: the record is served in this dataset, as `doctor` (new or changed); `delete`: it is no longer served in this dataset (suppressed, closed, unpublished or moved to another dataset); `merged` (API 1.4, only with `merges=true`): it is no longer served because it was merged into the record `mergedInto`',
    }),
    doctor: doctorComponent.nullable().meta({
      description: 'The record as search and single fetch return it; null for `delete` and `merged`',
    }),
    mergedInto: z.string().optional().meta({
      description:
        'API 1.4, for `merged` only: the id of the record this one was merged into (the end of a chain of merges). Remove `id` and point it at this record.',
    }),
    changedAt: z.iso.datetime().optional().meta({
      description:
        'API 1.3, in a feed started at an instant or from an export (and the pages its cursors lead to): when the change was made, ISO 8601 UTC. Entries come in the order changes became visible, which may differ from the order of `changedAt` by the length of a write.',
    }),
  })
  .meta({ id: 'Change', description: "A record's current state in the dataset's feed" });

export const changesPageSchema = z
  .looseObject({
    changes: z.array(changeEntrySchema).max(CHANGES_LIMIT_MAX),
    page: z.looseObject({
      count: z.number().int().min(0).max(CHANGES_LIMIT_MAX).meta({ description: 'Changes in this page' }),
      hasMore: z.boolean().meta({
        description: 'Whether more changes are ready now; ask again with nextCursor until false',
      }),
      nextCursor: z.string().max(CURSOR_MAX_LENGTH).meta({
        description:
          'Always present: send it as `since` (with the same country) for the changes after this page, now or later. When nothing was new it equals the cursor sent.',
      }),
    }),
  })
  .meta({ id: 'ChangesPage', description: 'One page of the changes feed, in feed order' });

// Documentation only: the route validates with the domain's parseChangesParams, which also rejects
// unknown and repeated parameters and reports every bad one at once.
export const changesQuerySchema = changesParamsSchema;
