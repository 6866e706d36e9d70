import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** Table types for kysely. Positions and versions are bigints parsed to numbers (see connection.ts). */

export type EventsTable = {
  position: Generated<number>;
  event_id: string;
  place_id: string;
  type: string;
  occurred_at: ColumnType<Date, string | Date, never>;
  schema_version: number;
  payload: JSONColumnType<Record<string, unknown>>;
  recorded_at: ColumnType<Date, never, never>;
};

export type PlacesTable = {
  place_id: string;
  document: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  stream_version: Generated<number>;
  state_version: Generated<number>;
  projected_version: Generated<number>;
  /** While the place lags: when the oldest change the index lacks was stored (null where not kept). */
  lag_since: ColumnType<Date | null, never, never>;
  served: Generated<boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** xid8 as decimal text: the transaction that last changed what a feed consumer sees (null: never served). */
  changed_xid: ColumnType<string | null, never, never>;
  /** The dataset the place was last served in (kept on its tombstone); null until first served. */
  feed_country: ColumnType<string | null, never, never>;
  /** When `changed_xid` last moved (the changing transaction's time); null: never served. */
  changed_at: ColumnType<Date | null, never, never>;
  /** Until when a worker's sweeper has claimed the place to refold it (a lease; null: not claimed). */
  sweep_claimed_until: ColumnType<Date | null, never, Date | null>;
  /** The place this one was merged into (its own merge, not the chain's end); null: not merged away. */
  merged_into: ColumnType<string | null, never, never>;
  /** When it was merged away (the `place.merged` event's `occurredAt`); null: not merged away. */
  merged_at: ColumnType<Date | null, never, never>;
  /** The profile page it was last published under (`country/citySlug/profileSlug`); null: not merged away or never published. */
  merged_profile: ColumnType<string | null, never, never>;
  /** SHA-256 of the document's `doctor` JSON text, written with it; null on rows written before it was kept. */
  doctor_digest: ColumnType<Buffer | null, never, never>;
  /** SHA-256 of the document's JSON text, written with it; null on rows written before it was kept. */
  document_digest: ColumnType<Buffer | null, never, never>;
};

/** Written by the `places_departure` trigger only: a place's removal from a dataset it left for another. */
export type PlaceDeparturesTable = {
  country: string;
  place_id: string;
  changed_xid: ColumnType<string, never, never>;
  changed_at: ColumnType<Date, never, never>;
};

/** "At `at`, every transaction with an id below `fence` (xid8 as text) had finished": see `recordFeedClock`. */
export type FeedClockTable = {
  at: ColumnType<Date, never, never>;
  fence: ColumnType<string, never, never>;
};

export type DeadLettersTable = {
  id: Generated<number>;
  fingerprint: string;
  event_id: string | null;
  place_id: string | null;
  reason: string;
  /** JSON text of what the producer sent (text, not jsonb: any escape, `\u0000` included, is storable). */
  raw: string;
  source: string;
  received_at: ColumnType<Date, never, never>;
  redriven_at: ColumnType<Date, never, Date | string> | null;
};

export type ProjectionFailuresTable = {
  place_id: string;
  /** The stream version whose document was refused; new events (a higher version) are tried again. */
  state_version: number;
  status: number;
  error_type: string;
  reason: string;
  attempts: Generated<number>;
  first_failed_at: ColumnType<Date, never, never>;
  last_failed_at: ColumnType<Date, never, Date | string>;
};

export type AccountsTable = {
  id: string;
  email: string;
  password_hash: string;
  created_at: ColumnType<Date, never, never>;
  /** When the holder followed a verification link; null until then (accounts older than 0017: their creation). */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** AES-256-GCM of the TOTP secret (console two-factor.ts); null: two-factor sign-in is off. */
  totp_secret: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  /** The secret being enrolled (shown until a code confirms it). */
  totp_pending_secret: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  totp_enabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last TOTP time step a code was accepted for: that step and earlier ones are refused (replay). */
  totp_last_step: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  /** When the account was deleted (its e-mail, password and secrets erased); null: not deleted. */
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};

/** The account's activity log (migration 0018). */
export type AccountEventsTable = {
  id: Generated<string>;
  account_id: string;
  kind: string;
  /** What the event was about (a key or endpoint id), never a secret. */
  detail: string | null;
  user_agent: string | null;
  /** The client's network (an IPv4 /24, an IPv6 /48), never its full address. */
  address_range: string | null;
  created_at: ColumnType<Date, never, never>;
};

/** Two-factor recovery codes, as SHA-256 hex only (migration 0019). */
export type AccountRecoveryCodesTable = {
  account_id: string;
  code_hash: string;
  created_at: ColumnType<Date, never, never>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};

export type AccountTokensTable = {
  /** SHA-256 hex of the token's random part (the token itself is only in the mail). */
  id: string;
  account_id: string;
  purpose: 'verify-email' | 'reset-password';
  /** The address the link was mailed to. */
  email: string;
  created_at: ColumnType<Date, never, never>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};

export type ApiKeysTable = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: ColumnType<Date, never, never>;
  revoked_at: ColumnType<Date, never, Date | string> | null;
  last_used_at: ColumnType<Date, never, Date | string> | null;
  /** Null: never expires. */
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The key this one replaced when it was rolled (null: created, not rolled). */
  rolled_from: ColumnType<string | null, string | null | undefined, never>;
};

/** Authenticated requests per key per UTC day (`limited`: those answered 429). */
export type ApiKeyUsageTable = {
  key_id: string;
  /** `YYYY-MM-DD`: always select it as `day::text` (pg would parse a date into a local-time Date). */
  day: ColumnType<string, string, string>;
  requests: ColumnType<number, number, number>;
  limited: ColumnType<number, number, number>;
};

/** Usage batches already added to api_key_usage (exactly-once flushing). */
export type ApiKeyUsageFlushesTable = {
  id: string;
  applied_at: ColumnType<Date, never, never>;
};

export type ConsoleSessionsTable = {
  /** SHA-256 hex of the session token (the token itself lives only in the browser's cookie). */
  id: string;
  account_id: string;
  created_at: ColumnType<Date, never, never>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  last_seen_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The browser's User-Agent as sent at sign-in, cut to 256 characters. */
  user_agent: string | null;
  /** The client's network at sign-in (an IPv4 /24, an IPv6 /48), never its full address. */
  address_range: string | null;
};

export type WebhookEndpointsTable = {
  id: Generated<string>;
  account_id: string;
  url: string;
  countries: ColumnType<string[], string[], string[]>;
  /** AES-256-GCM of the signing secret (packages/webhooks, secret-box.ts). */
  secret_ciphertext: Buffer;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** When the scheduler last started an attempt to it: the least recently served endpoint goes first. */
  last_served_at: ColumnType<Date | null, never, Date | string | null>;
};

export type WebhookDeliveriesTable = {
  /** `msg_<random>`: the Standard Webhooks `webhook-id`, the same on every attempt. */
  id: string;
  endpoint_id: string;
  event_type: string;
  place_id: string | null;
  place_version: number | null;
  /** The exact body every attempt sends. */
  payload: string;
  status: ColumnType<
    'pending' | 'delivered' | 'failed' | 'abandoned',
    'pending' | 'delivered' | 'failed' | 'abandoned' | undefined,
    'pending' | 'delivered' | 'failed' | 'abandoned'
  >;
  attempts: Generated<number>;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: ColumnType<Date, never, never>;
  /** When the change was made (null for a test event). */
  changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  delivered_at: ColumnType<Date | null, never, Date | string | null>;
  /** When the next attempt may start (now for a new delivery; later after a failed attempt). */
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Set while an attempt runs; an attempt whose worker died is taken again once it has passed. */
  leased_until: ColumnType<Date | null, never, Date | string | null>;
};

/** Accounts whose webhooks an operator stopped (`directory webhooks block`). */
export type WebhookAccountBlocksTable = {
  account_id: string;
  reason: string;
  blocked_at: ColumnType<Date, never, never>;
};

/** Periodic work one worker at a time runs (migration 0014): a lease per task, in the database's clock. */
export type MaintenanceClaimsTable = {
  task: string;
  /** Which process holds or last held the claim (host, pid and a random part: no secret). */
  holder: string;
  claimed_until: Date;
  /** When the holder last finished the task (null: never). */
  last_finished_at: Date | null;
};

/** Where the webhook dispatcher is in each country's changes feed. */
export type WebhookFeedPositionsTable = {
  country: string;
  /** xid8 as decimal text. */
  xid: string;
  place_id: string;
};

/** The one row `directory sandbox load` writes into the database it prepares as the sandbox (migration 0015). */
export type SandboxMarkerTable = {
  only_row: ColumnType<boolean, true | undefined, never>;
  /** The sample data the loader last loaded: every event of the database must belong to it. */
  sample_seed: number;
  sample_events: number;
  marked_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type DatabaseSchema = {
  events: EventsTable;
  places: PlacesTable;
  place_departures: PlaceDeparturesTable;
  feed_clock: FeedClockTable;
  dead_letters: DeadLettersTable;
  projection_failures: ProjectionFailuresTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  api_key_usage_flushes: ApiKeyUsageFlushesTable;
  console_sessions: ConsoleSessionsTable;
  account_tokens: AccountTokensTable;
  account_events: AccountEventsTable;
  account_recovery_codes: AccountRecoveryCodesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_feed_positions: WebhookFeedPositionsTable;
  maintenance_claims: MaintenanceClaimsTable;
  webhook_account_blocks: WebhookAccountBlocksTable;
  sandbox_marker: SandboxMarkerTable;
};
