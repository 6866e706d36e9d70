import { LIVE_COUNTRY_CODES } from '@directory/domain';

type JsonObject = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * What the API sends, described beside what it answers (OpenAPI 3.1 `webhooks`): the signed deliveries
 * of `packages/webhooks` (Standard Webhooks). The bodies are built by `changePayload` / `testPayload`
 * there; a spec validates those against these schemas, so the two cannot drift apart.
 */
export const WEBHOOK_SCHEMAS: Record<string, JsonObject> = {
  DoctorChangeEvent: {
    type: 'object',
    description:
      'A record that became served, changed (`doctor.upserted`) or stopped being served (`doctor.deleted`) in a dataset an endpoint follows. Several deliveries for one record can arrive out of order (retries): keep, per `data.id`, the one with the highest `data.version`.',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', enum: ['doctor.upserted', 'doctor.deleted'] },
      timestamp: {
        type: 'string',
        format: 'date-time',
        description: 'When the change was made (= `data.changedAt`)',
      },
      data: {
        type: 'object',
        required: ['id', 'country', 'version', 'changedAt', 'doctor'],
        properties: {
          id: { type: 'string', description: 'The record id (as in search and the changes feed)' },
          country: { type: 'string', enum: [...LIVE_COUNTRY_CODES], description: 'The dataset' },
          version: {
            type: 'integer',
            minimum: 1,
            description: "The record's version: only grows; a delivery with a lower one than held is stale",
          },
          changedAt: { type: 'string', format: 'date-time', description: 'When the change was made' },
          doctor: {
            oneOf: [{ $ref: `${COMPONENT_REF}Doctor` }, { type: 'null' }],
            description: 'The record as search returns it; null for `doctor.deleted`',
          },
          mergedInto: {
            type: 'string',
            description:
              'API 1.4, on `doctor.deleted` only: the record was removed because it was merged into the record with this id (the end of a chain of merges). Remove `id` and point it at this record.',
          },
        },
      },
    },
  },
  WebhookTestEvent: {
    type: 'object',
    description: 'Sent by "Send test event" in the console, to check an endpoint and its signature check.',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { type: 'string', const: 'webhook.test' },
      timestamp: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        required: ['endpointId'],
        properties: { endpointId: { type: 'string', format: 'uuid' } },
      },
    },
  },
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The delivery id (`msg_…`), the same on every retry: deduplicate by it',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse one far from your clock (e.g. 5 minutes)',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); Standard Webhooks libraries verify it",
    schema: { type: 'string' },
  },
];

function delivery(operationId: string, summary: string, schema: string): JsonObject {
  return {
    post: {
      operationId,
      summary,
      description:
        'Sent by POST to each HTTPS endpoint following the dataset, signed (Standard Webhooks). Answer 2xx within 10 seconds to acknowledge; any other answer, a timeout or a refused connection is retried with backoff for 24 hours, and an endpoint failing for a whole day is disabled (docs/api.md, "Webhooks").',
      tags: ['webhooks'],
      security: [],
      parameters: SIGNATURE_HEADERS,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}${schema}` } } },
      },
      responses: {
        '200': { description: 'Received (any 2xx status); nothing in the body is read' },
        '4XX': { description: 'Not accepted: the delivery is retried' },
      },
    },
  };
}

/** Adds the `webhooks` object and its schemas to a finished document. */
export function addWebhooks(document: JsonObject, schemas: JsonObject): void {
  Object.assign(schemas, WEBHOOK_SCHEMAS);
  document.webhooks = {
    'doctor.upserted': delivery('doctorUpserted', 'A record became served or changed', 'DoctorChangeEvent'),
    'doctor.deleted': delivery('doctorDeleted', 'A record stopped being served', 'DoctorChangeEvent'),
    'webhook.test': delivery('webhookTest', 'A test delivery from the console', 'WebhookTestEvent'),
  };
}
