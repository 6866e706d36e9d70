import { sql, type Kysely, type Selectable } from 'kysely';
import type { Config } from '@directory/config';
import type { Database } from '@directory/database';
import { COUNTRY_CODES, fail, ok, type CountryCode, type Result } from '@directory/domain';
import { checkTarget, parseEndpointUrl, type AddressPolicy } from './address-policy.js';
import { RECEIVING_ENDPOINT, ensureFeedPosition, holdsActiveLiveKey } from './dispatcher.js';
import { testPayload } from './payloads.js';
import { abandonPending } from './schedule.js';
import { sealSecret } from './secret-box.js';
import { generateMessageId, generateSecret } from './signing.js';

type Schema = Database extends Kysely<infer Tables> ? Tables : never;
type WebhookEndpointsTable = Schema['webhook_endpoints'];
type WebhookDeliveriesTable = Schema['webhook_deliveries'];

export type WebhookEndpoint = {
  id: string;
  accountId: string;
  url: string;
  countries: CountryCode[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
};

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'abandoned';

export type WebhookDelivery = {
  id: string;
  endpointId: string;
  eventType: string;
  placeId: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  createdAt: Date;
  deliveredAt: Date | null;
};

export const WEBHOOK_ENDPOINTS_PER_ACCOUNT = 5;

/** The address policy (WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_ALLOWED_PORTS, WEBHOOK_DNS_*) and the secrets' key. */
export type WebhookOptions = AddressPolicy & {
  /** WEBHOOK_SECRET_KEY: the key signing secrets are encrypted with in the database. */
  secretKey: string;
};

export type WebhookDeps = { db: Database; options: WebhookOptions };

export function webhookOptionsOf(config: Config): WebhookOptions {
  return {
    secretKey: config.WEBHOOK_SECRET_KEY,
    allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
    allowedPorts: config.WEBHOOK_ALLOWED_PORTS,
    dns: {
      servers: config.WEBHOOK_DNS_SERVERS,
      timeoutMs: config.WEBHOOK_DNS_TIMEOUT_MS,
      tries: config.WEBHOOK_DNS_TRIES,
    },
  };
}

type EndpointRow = Pick<
  Selectable<WebhookEndpointsTable>,
  'id' | 'account_id' | 'url' | 'countries' | 'enabled' | 'disabled_reason' | 'failing_since' | 'created_at'
>;
const ENDPOINT_COLUMNS = [
  'id',
  'account_id',
  'url',
  'countries',
  'enabled',
  'disabled_reason',
  'failing_since',
  'created_at',
] as const;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    countries: row.countries as CountryCode[],
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
  };
}

type DeliveryRow = Pick<
  Selectable<WebhookDeliveriesTable>,
  | 'id'
  | 'endpoint_id'
  | 'event_type'
  | 'place_id'
  | 'status'
  | 'attempts'
  | 'last_status_code'
  | 'last_error'
  | 'last_latency_ms'
  | 'created_at'
  | 'delivered_at'
>;
export const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_type',
  'place_id',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'last_latency_ms',
  'created_at',
  'delivered_at',
] as const;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventType: row.event_type,
    placeId: row.place_id,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastLatencyMs: row.last_latency_ms,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The countries an endpoint follows, each once, in the order of COUNTRY_CODES; or why not. */
function followedCountries(countries: ReadonlyArray<string>): Result<CountryCode[]> {
  if (countries.length === 0) return fail('choose at least one country');
  const known = new Set<string>(COUNTRY_CODES);
  const unknown = countries.find((country) => !known.has(country));
  if (unknown !== undefined) return fail(`unknown country: ${unknown}`);
  return ok(COUNTRY_CODES.filter((country) => countries.includes(country)));
}

const LIMIT_REACHED = `an account can have at most ${WEBHOOK_ENDPOINTS_PER_ACCOUNT} webhook endpoints`;

/** How many endpoints the account has, or null when there is no such account. */
async function endpointCount(db: Database, accountId: string): Promise<number | null> {
  const row = await db
    .selectFrom('accounts')
    .leftJoin('webhook_endpoints', 'webhook_endpoints.account_id', 'accounts.id')
    .select((eb) => eb.fn.count<number>('webhook_endpoints.id').as('count'))
    .where('accounts.id', '=', accountId)
    .groupBy('accounts.id')
    .executeTakeFirst();
  return row === undefined ? null : Number(row.count);
}

/**
 * Registers an endpoint: validates the URL (https, no credentials, an allowed port, public host by DNS:
 * see address-policy.ts), stores it with its secret encrypted, and returns the secret, the only time it
 * is ever shown. The account's limit is checked before any DNS query (an account at its limit costs no
 * lookup), and again under the account's lock.
 */
export async function createEndpoint(
  db: Database,
  input: { accountId: string; url: string; countries: CountryCode[] },
  options: WebhookOptions,
): Promise<Result<{ endpoint: WebhookEndpoint; secret: string }, string>> {
  const countries = followedCountries(input.countries);
  if (!countries.ok) return countries;
  const url = input.url.trim();
  const parsed = parseEndpointUrl(url, options);
  if (!parsed.ok) return parsed;
  const count = await endpointCount(db, input.accountId);
  if (count === null) return fail('unknown account');
  if (count >= WEBHOOK_ENDPOINTS_PER_ACCOUNT) return fail(LIMIT_REACHED);
  const address = await checkTarget(parsed.value, options);
  if (!address.ok) return address;
  const secret = generateSecret();
  return db.transaction().execute(async (trx) => {
    // The account's row serialises concurrent registrations, so the limit holds under a race.
    const account = await trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', input.accountId)
      .forUpdate()
      .executeTakeFirst();
    if (account === undefined) return fail('unknown account');
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', input.accountId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= WEBHOOK_ENDPOINTS_PER_ACCOUNT) return fail(LIMIT_REACHED);
    const row = await trx
      .insertInto('webhook_endpoints')
      .values({
        account_id: input.accountId,
        url,
        countries: countries.value,
        secret_ciphertext: sealSecret(secret, options.secretKey),
        disabled_reason: null,
      })
      .returning(ENDPOINT_COLUMNS)
      .executeTakeFirstOrThrow();
    // Changes from now on are delivered (not the feed's history).
    for (const country of countries.value) await ensureFeedPosition(trx, country);
    return ok({ endpoint: toEndpoint(row), secret });
  });
}

export async function listEndpoints(db: Database, accountId: string): Promise<WebhookEndpoint[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toEndpoint);
}

export async function findEndpoint(
  db: Database,
  accountId: string,
  endpointId: string,
): Promise<WebhookEndpoint | null> {
  if (!UUID.test(endpointId)) return null;
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .executeTakeFirst();
  return row === undefined ? null : toEndpoint(row);
}

/** Switches an endpoint on or off; switching it on clears why it was off and since when it failed. */
export async function setEndpointEnabled(
  db: Database,
  accountId: string,
  endpointId: string,
  enabled: boolean,
): Promise<WebhookEndpoint | null> {
  if (!UUID.test(endpointId)) return null;
  return db.transaction().execute(async (trx) => {
    const row = await switchEndpoint(trx, accountId, endpointId, enabled);
    if (row === null) return null;
    // Switched on: it gets what changes from now on, not what changed while it was off.
    if (enabled) for (const country of row.countries) await ensureFeedPosition(trx, country);
    // Switched off: what was waiting for it is not sent.
    else await abandonPending(trx, row.id);
    return row;
  });
}

async function switchEndpoint(
  db: Database,
  accountId: string,
  endpointId: string,
  enabled: boolean,
): Promise<WebhookEndpoint | null> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set(
      enabled
        ? { enabled: true, disabled_reason: null, failing_since: null, updated_at: new Date() }
        : { enabled: false, updated_at: new Date() },
    )
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
  return row === undefined ? null : toEndpoint(row);
}

/** Deletes an endpoint and (cascade) its deliveries; their queued jobs find nothing and end. */
export async function deleteEndpoint(db: Database, accountId: string, endpointId: string): Promise<boolean> {
  if (!UUID.test(endpointId)) return false;
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('account_id', '=', accountId)
    .where('id', '=', endpointId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** An endpoint's newest deliveries first (an unknown or another account's endpoint: none). */
export async function listDeliveries(
  db: Database,
  accountId: string,
  endpointId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  if (!UUID.test(endpointId)) return [];
  const rows = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select(DELIVERY_COLUMNS.map((column) => `webhook_deliveries.${column}` as const))
    .where('webhook_endpoints.account_id', '=', accountId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .orderBy('webhook_deliveries.created_at', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(Math.max(1, Math.min(Math.floor(limit), 500)))
    .execute();
  return rows.map(toDelivery);
}

/**
 * Makes a `webhook.test` delivery to an endpoint that receives deliveries (enabled, its account holding
 * an active live key and not blocked); the delivery worker sends it. Null when there is none such.
 */
export async function sendTestEvent(
  deps: WebhookDeps,
  accountId: string,
  endpointId: string,
): Promise<WebhookDelivery | null> {
  if (!UUID.test(endpointId)) return null;
  const id = generateMessageId();
  const row = await deps.db
    .insertInto('webhook_deliveries')
    .columns(['id', 'endpoint_id', 'event_type', 'payload'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints as e')
        .select([
          eb.val(id).as('id'),
          'e.id as endpoint_id',
          eb.val('webhook.test').as('event_type'),
          eb.val(testPayload(endpointId, new Date())).as('payload'),
        ])
        .where('e.id', '=', endpointId)
        .where('e.account_id', '=', accountId)
        .where(RECEIVING_ENDPOINT),
    )
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirst();
  return row === undefined ? null : toDelivery(row);
}

/**
 * Whether the account's endpoints may receive deliveries, and if not, why (for the console): an
 * operator's block, or no active live key.
 */
export async function receivingRefusal(db: Database, accountId: string): Promise<string | null> {
  const result = await sql<{ reason: string | null; live: boolean }>`
    select (select reason from webhook_account_blocks where account_id = ${accountId}) as reason,
           ${holdsActiveLiveKey(sql.val(accountId))} as live`.execute(db);
  const row = result.rows[0];
  if (row?.reason != null) return `webhooks are stopped for this account by an operator: ${row.reason}`;
  if (row?.live !== true) return 'webhooks need an active live API key: create one on the keys page';
  return null;
}
