import { randomBytes as nodeRandomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import {
  API_KEY_RANDOM_BYTES,
  apiKeyModeOf,
  expiryFor,
  generateApiKey,
  graceEndFor,
  hashApiKey,
  isWellFormedApiKey,
  keyStateAt,
  successorExpiry,
  type ApiKeyMode,
  type KeyExpiryChoice,
  type KeyGraceChoice,
} from '@directory/domain';
import { lockAccount } from './account.repository.js';
import { barredWrite, type KeyVouches } from './key-vouches.js';

/**
 * An account may hold at most five active keys. A key counts while it authenticates requests:
 * a rolled key in its grace period counts beside its successor; an expired key no longer does.
 */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 5;

/** Non-secret metadata of a key, plus what operators and the console need. */
export type ApiKeyRecord = {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  /** `live` reads the directory, `test` the sandbox dataset: named by the secret's prefix. */
  mode: ApiKeyMode;
  creationTime: Date;
  /** When it stops (or stopped) working; in the future for a rolled key in its grace period. */
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** The last request it authenticated, as of the last usage flush (about a minute behind at most). */
  lastUsedAt: Date | null;
  /** The key this one replaced, when it was made by rolling. */
  rolledFrom: string | null;
};

/** The key a request authenticated with: only working keys are ever returned as this. */
export type ActiveApiKey = Pick<
  ApiKeyRecord,
  'id' | 'accountId' | 'name' | 'prefix' | 'mode' | 'creationTime'
>;

/** What a secret's hash names: a working key, an expired one, or nothing usable (unknown or revoked). */
export type KeyCheck = { kind: 'active'; key: ActiveApiKey } | { kind: 'expired' } | { kind: 'refused' };

export type CreatedApiKey = { key: ApiKeyRecord; secret: string };

export class ApiKeyLimitError extends Error {
  readonly accountId: string;
  constructor(accountId: string) {
    super(
      `account already holds ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active API keys, the maximum; revoke one before creating another`,
    );
    this.name = 'ApiKeyLimitError';
    this.accountId = accountId;
  }
}

export const MAX_KEY_NAME_LENGTH = 100;

export class InvalidKeyNameError extends Error {
  constructor() {
    super(`key name must be 1 to ${MAX_KEY_NAME_LENGTH} characters`);
    this.name = 'InvalidKeyNameError';
  }
}

export class KeyNotRollableError extends Error {
  constructor() {
    super('only an active key can be rolled (not a revoked or expired one, nor one already rolled)');
    this.name = 'KeyNotRollableError';
  }
}

type ApiKeyRow = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  rolled_from: string | null;
};

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    mode: apiKeyModeOf(row.prefix),
    creationTime: row.created_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    rolledFrom: row.rolled_from,
  };
}

const KEY_COLUMNS = [
  'id',
  'account_id',
  'name',
  'prefix',
  'created_at',
  'revoked_at',
  'expires_at',
  'last_used_at',
  'rolled_from',
] as const;

// A transaction is a Database (kysely's Transaction extends Kysely); these helpers expect one.
type KeysTransaction = Database;

/**
 * The transaction's clock (PostgreSQL's `now()`, fixed for the whole transaction): creation, expiry and
 * grace are all computed from it, so they agree with the `created_at` default and with each other.
 */
async function transactionNow(trx: KeysTransaction): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(trx);
  if (rows[0] === undefined) throw new Error('select now() returned no row');
  return rows[0].now;
}

/**
 * Locks the account row (serializing key changes of one account) and counts its working keys at the
 * transaction's `now()`. Compared in the database, not with `transactionNow`'s Date: a Date holds
 * milliseconds, the columns microseconds, so a key revoked earlier in the same millisecond would still
 * count as working.
 */
async function lockAccountAndCountWorkingKeys(trx: KeysTransaction, accountId: string): Promise<number> {
  await lockAccount(trx, accountId);
  const { working } = await trx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('working'))
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', sql<Date>`now()`)]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirstOrThrow();
  return Number(working);
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > MAX_KEY_NAME_LENGTH) throw new InvalidKeyNameError();
  return trimmed;
}

/**
 * Creates a key and returns its secret (the only time it exists outside the caller's hands). The
 * account row is locked for the transaction, so concurrent creates for one account are serialized and
 * the five-key limit holds under any interleaving.
 */
export async function createApiKey(
  db: Database,
  options: {
    accountId: string;
    name: string;
    /** Lifetime in days, or never (the default). */
    expiry?: KeyExpiryChoice;
    /** `live` (the default) or `test`: a sandbox key (docs/api.md, "Sandbox"). */
    mode?: ApiKeyMode;
    randomBytes?: (size: number) => Uint8Array;
  },
): Promise<CreatedApiKey> {
  const name = validName(options.name);
  const generated = generateApiKey(
    (options.randomBytes ?? nodeRandomBytes)(API_KEY_RANDOM_BYTES),
    options.mode ?? 'live',
  );

  const row = await db.transaction().execute(async (trx) => {
    const now = await transactionNow(trx);
    const working = await lockAccountAndCountWorkingKeys(trx, options.accountId);
    if (working >= MAX_ACTIVE_KEYS_PER_ACCOUNT) throw new ApiKeyLimitError(options.accountId);

    return trx
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        account_id: options.accountId,
        name,
        prefix: generated.prefix,
        secret_hash: generated.hash,
        expires_at: expiryFor(now, options.expiry ?? 'never'),
      })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  });
  return { key: toRecord(row), secret: generated.secret };
}

export type RolledApiKey = CreatedApiKey & { previous: ApiKeyRecord };

/**
 * Rolls an active key: a successor with the same name and mode (and the same lifetime, from now) is created, and
 * the old key's revocation is scheduled at the end of the grace period (now, for `none`). While both
 * work both count toward the five-key limit, so a roll with a grace period needs a free slot. Null
 * when there is no such key (or, with `accountId`, that account does not hold it).
 */
export async function rollApiKey(
  db: Database,
  vouches: KeyVouches,
  id: string,
  options: { grace: KeyGraceChoice; accountId?: string; randomBytes?: (size: number) => Uint8Array },
): Promise<RolledApiKey | null> {
  if (!KEY_ID_PATTERN.test(id)) return null;
  const randomBytes = (options.randomBytes ?? nodeRandomBytes)(API_KEY_RANDOM_BYTES);
  // No process answers for the old row from memory once it is written (key-vouches.ts).
  return barredWrite(vouches, id, () => rollInTransaction(db, id, randomBytes, options));
}

async function rollInTransaction(
  db: Database,
  id: string,
  randomBytes: Uint8Array,
  options: { grace: KeyGraceChoice; accountId?: string },
): Promise<RolledApiKey | null> {
  return db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id);
    if (options.accountId !== undefined) query = query.where('account_id', '=', options.accountId);
    const found = await query.executeTakeFirst();
    if (found === undefined) return null;

    const now = await transactionNow(trx);
    const working = await lockAccountAndCountWorkingKeys(trx, found.account_id);
    // Read again under the account lock: a concurrent roll or revoke of this key has finished by now.
    const old = toRecord(
      await trx.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow(),
    );
    if (keyStateAt(old, now) !== 'active') throw new KeyNotRollableError();
    if (options.grace !== 'none' && working >= MAX_ACTIVE_KEYS_PER_ACCOUNT) {
      throw new ApiKeyLimitError(old.accountId);
    }

    // The successor reads what its predecessor read: a sandbox key rolls into a sandbox key.
    const generated = generateApiKey(randomBytes, old.mode);
    const previous = await trx
      .updateTable('api_keys')
      .set({ revoked_at: graceEndFor(now, options.grace) })
      .where('id', '=', old.id)
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
    const successor = await trx
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        account_id: old.accountId,
        name: old.name,
        prefix: generated.prefix,
        secret_hash: generated.hash,
        expires_at: successorExpiry(old, now),
        rolled_from: old.id,
      })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
    return { key: toRecord(successor), secret: generated.secret, previous: toRecord(previous) };
  });
}

/** Every key (of one account, or of all), newest first; revoked keys included for the record. */
export async function listApiKeys(db: Database, accountId?: string): Promise<ApiKeyRecord[]> {
  let query = db.selectFrom('api_keys').select(KEY_COLUMNS).orderBy('created_at', 'desc').orderBy('id');
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return (await query.execute()).map(toRecord);
}

// Key ids are UUIDs (createApiKey); anything else names no key and is answered without a query (a NUL
// character, for one, is not even storable in PostgreSQL text and would fail the query).
const KEY_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One key by id, or null; with `accountId`, only if that account holds it (another's key is unknown). */
export async function findApiKey(
  db: Database,
  id: string,
  scope: { accountId?: string } = {},
): Promise<ApiKeyRecord | null> {
  if (!KEY_ID_PATTERN.test(id)) return null;
  let query = db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id);
  if (scope.accountId !== undefined) query = query.where('account_id', '=', scope.accountId);
  const row = await query.executeTakeFirst();
  return row === undefined ? null : toRecord(row);
}

/**
 * Revokes a key now (idempotent: a second revoke keeps the first time; a rolled key's scheduled
 * revocation is brought forward to now). Null when there is no such key, or, with `accountId`, when that
 * account does not hold it.
 */
export async function revokeApiKey(
  db: Database,
  vouches: KeyVouches,
  id: string,
  scope: { accountId?: string } = {},
): Promise<ApiKeyRecord | null> {
  if (!KEY_ID_PATTERN.test(id)) return null;
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`least(coalesce(revoked_at, now()), now())` })
    .where('id', '=', id);
  if (scope.accountId !== undefined) query = query.where('account_id', '=', scope.accountId);
  // The next request in every process reads the revoked row (key-vouches.ts).
  const row = await barredWrite(vouches, id, () => query.returning(KEY_COLUMNS).executeTakeFirst());
  return row === undefined ? null : toRecord(row);
}

/**
 * What a secret authenticates as, at `now` (by default the database's clock as it reads the row: the
 * clock revocations and expiries are written with), read from the database. Malformed secrets are
 * refused before any database access. Request-serving processes go through createKeyLookup, which may
 * answer from memory while Redis vouches for the row (key-vouches.ts); this reads the row every time.
 */
export async function checkKeyBySecret(db: Database, secret: string, now?: Date): Promise<KeyCheck> {
  if (!isWellFormedApiKey(secret)) return { kind: 'refused' };
  const read = await readKeyByHash(db, hashApiKey(secret));
  if (read === null) return { kind: 'refused' };
  return keyCheckAt(read.stored, now ?? read.databaseTime);
}

/** What authentication needs of a key's row: the key, and when it stops working. */
export type StoredKey = { key: ActiveApiKey; revokedAt: Date | null; expiresAt: Date | null };

/**
 * The row a secret's hash names, or null; with the database's `clock_timestamp()` as it read the row
 * (revoked_at and expires_at were written by that clock: database-clock.ts).
 */
export async function readKeyByHash(
  db: Database,
  secretHash: string,
): Promise<{ stored: StoredKey; databaseTime: Date } | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(KEY_COLUMNS)
    .select(sql<Date>`clock_timestamp()`.as('database_time'))
    .where('secret_hash', '=', secretHash)
    .executeTakeFirst();
  if (row === undefined) return null;
  const { id, accountId, name, prefix, mode, creationTime, revokedAt, expiresAt } = toRecord(row);
  return {
    stored: { key: { id, accountId, name, prefix, mode, creationTime }, revokedAt, expiresAt },
    databaseTime: row.database_time,
  };
}

/**
 * The version of a stored key that authentication answers with (what a revoke or roll changes, and
 * the name): equal versions answer every request alike.
 */
export function rowVersionOf(stored: StoredKey): string {
  return JSON.stringify([
    stored.revokedAt?.getTime() ?? null,
    stored.expiresAt?.getTime() ?? null,
    stored.key.name,
  ]);
}

/** What a stored key (or none) authenticates as at `now`: its state is computed at that instant. */
export function keyCheckAt(stored: StoredKey | null, now: Date): KeyCheck {
  if (stored === null) return { kind: 'refused' };
  switch (keyStateAt(stored, now)) {
    case 'active':
    case 'retiring':
      return { kind: 'active', key: stored.key };
    case 'expired':
      return { kind: 'expired' };
    case 'revoked':
      return { kind: 'refused' };
  }
}

/** The working key a secret belongs to, or null (operators' and tests' shorthand of checkKeyBySecret). */
export async function findActiveKeyBySecret(db: Database, secret: string): Promise<ActiveApiKey | null> {
  const check = await checkKeyBySecret(db, secret);
  return check.kind === 'active' ? check.key : null;
}
