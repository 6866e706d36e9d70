import { z } from 'zod';
import { COUNTRY_CODES, doctorSchema, writerFor, type CountryCode, type Doctor } from '@directory/domain';

export type WebhookEventType = 'doctor.upserted' | 'doctor.deleted' | 'webhook.test';

/** One change of the feed as a webhook tells it; receivers order by `version` per `id`. */
export type ChangeEvent = {
  placeId: string;
  country: CountryCode;
  version: number;
  /** ISO instant of the change. */
  changedAt: string;
  /** Null: the record stopped being served in this dataset. */
  doctor: Doctor | null;
  /**
   * API 1.4: a record no longer served because it was merged away, the final survivor's id. It is
   * still sent as `doctor.deleted` (a receiver that knows nothing of merges removes it, as it should),
   * with `data.mergedInto` added for a receiver that re-keys. Absent or null otherwise.
   */
  mergedInto?: string | null;
};

/** The body of a change's delivery (docs/api.md, "What is sent"): the Doctor inside is the allowlist. */
const changePayloadSchema = z.strictObject({
  type: z.enum(['doctor.upserted', 'doctor.deleted']),
  timestamp: z.string(),
  data: z.strictObject({
    id: z.string(),
    country: z.enum(COUNTRY_CODES),
    version: z.number().int(),
    changedAt: z.string(),
    doctor: doctorSchema.nullable(),
    mergedInto: z.string().optional(),
  }),
});

const testPayloadSchema = z.strictObject({
  type: z.literal('webhook.test'),
  timestamp: z.string(),
  data: z.strictObject({ endpointId: z.string() }),
});

// Compiled once, at module load. The doctor comes from a stored document: whatever that holds, only the
// allowlisted fields are written (the API's writer), so nothing else can leave through a webhook.
const writeChangePayload = writerFor(changePayloadSchema);
const writeTestPayload = writerFor(testPayloadSchema);

export function changeEventType(change: ChangeEvent): WebhookEventType {
  return change.doctor === null ? 'doctor.deleted' : 'doctor.upserted';
}

/** The body of a change's delivery, built once and stored: every attempt sends these exact bytes. */
export function changePayload(change: ChangeEvent): string {
  return writeChangePayload({
    type: changeEventType(change),
    timestamp: change.changedAt,
    data: {
      id: change.placeId,
      country: change.country,
      version: change.version,
      changedAt: change.changedAt,
      doctor: change.doctor,
      ...(change.doctor === null && typeof change.mergedInto === 'string'
        ? { mergedInto: change.mergedInto }
        : {}),
    },
  });
}

export function testPayload(endpointId: string, now: Date): string {
  return writeTestPayload({ type: 'webhook.test', timestamp: now.toISOString(), data: { endpointId } });
}
