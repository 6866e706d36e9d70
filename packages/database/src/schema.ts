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
  served: Generated<boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
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
};

export type ConsoleSessionsTable = {
  /** SHA-256 hex of the session token (the token itself lives only in the browser's cookie). */
  id: string;
  account_id: string;
  created_at: ColumnType<Date, never, never>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
};

export type DatabaseSchema = {
  events: EventsTable;
  places: PlacesTable;
  dead_letters: DeadLettersTable;
  projection_failures: ProjectionFailuresTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  console_sessions: ConsoleSessionsTable;
};
