import type { CountryCode, Doctor } from '@directory/domain';

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
};

export function changeEventType(change: ChangeEvent): WebhookEventType {
  return change.doctor === null ? 'doctor.deleted' : 'doctor.upserted';
}

/** The body of a change's delivery, built once and stored: every attempt sends these exact bytes. */
export function changePayload(change: ChangeEvent): string {
  return JSON.stringify({
    type: changeEventType(change),
    timestamp: change.changedAt,
    data: {
      id: change.placeId,
      country: change.country,
      version: change.version,
      changedAt: change.changedAt,
      doctor: change.doctor,
    },
  });
}

export function testPayload(endpointId: string, now: Date): string {
  return JSON.stringify({ type: 'webhook.test', timestamp: now.toISOString(), data: { endpointId } });
}
