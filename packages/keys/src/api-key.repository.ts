import { randomBytes as nodeRandomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';
import { API_KEY_RANDOM_BYTES, generateApiKey, hashApiKey, isWellFormedApiKey } from '@directory/domain';

/** SPEC §5: an account may hold at most five active (not revoked) keys. */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 5;

/** Non-secret metadata of a key (SPEC §2 "Key"), plus what operators and the console need. */
export type ApiKeyRecord = {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  creationTime: Date;
  revokedAt: Date | null;
};

/** The key a request authenticated with: only active keys are ever returned as this. */
export type ActiveApiKey = Omit<ApiKeyRecord, 'revokedAt'>;

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

export class AccountNotFoundError extends Error {
  constructor(accountId: string) {
    super(`no account with id ${accountId}`);
    this.name = 'AccountNotFoundError';
  }
}

export const MAX_KEY_NAME_LENGTH = 100;

export class InvalidKeyNameError extends Error {
  constructor() {
    super(`key name must be 1 to ${MAX_KEY_NAME_LENGTH} characters`);
    this.name = 'InvalidKeyNameError';
  }
}

type ApiKeyRow = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
};

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.prefix,
    creationTime: row.created_at,
    revokedAt: row.revoked_at,
  };
}

const KEY_COLUMNS = ['id', 'account_id', 'name', 'prefix', 'created_at', 'revoked_at'] as const;

/**
 * Creates a key and returns its secret (the only time it exists outside the caller's hands). The
 * account row is locked for the transaction, so concurrent creates for one account are serialized and
 * the five-key limit holds under any interleaving.
 */
export async function createApiKey(
  db: Database,
  options: { accountId: string; name: string; randomBytes?: (size: number) => Uint8Array },
): Promise<CreatedApiKey> {
  const name = options.name.trim();
  if (name === '' || name.length > MAX_KEY_NAME_LENGTH) throw new InvalidKeyNameError();
  const generated = generateApiKey((options.randomBytes ?? nodeRandomBytes)(API_KEY_RANDOM_BYTES));

  const row = await db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', options.accountId)
      .forUpdate()
      .executeTakeFirst();
    if (account === undefined) throw new AccountNotFoundError(options.accountId);

    const { active } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('active'))
      .where('account_id', '=', options.accountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(active) >= MAX_ACTIVE_KEYS_PER_ACCOUNT) throw new ApiKeyLimitError(options.accountId);

    return trx
      .insertInto('api_keys')
      .values({
        id: randomUUID(),
        account_id: options.accountId,
        name,
        prefix: generated.prefix,
        secret_hash: generated.hash,
      })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  });
  return { key: toRecord(row), secret: generated.secret };
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
 * Revokes a key (idempotent: a second revoke keeps the first time). Null when there is no such key, or,
 * with `accountId`, when that account does not hold it.
 */
export async function revokeApiKey(
  db: Database,
  id: string,
  scope: { accountId?: string } = {},
): Promise<ApiKeyRecord | null> {
  if (!KEY_ID_PATTERN.test(id)) return null;
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id);
  if (scope.accountId !== undefined) query = query.where('account_id', '=', scope.accountId);
  const row = await query.returning(KEY_COLUMNS).executeTakeFirst();
  return row === undefined ? null : toRecord(row);
}

/**
 * The active key a secret belongs to, or null. Malformed secrets are refused before any database
 * access. Never cached: a revoke is effective on the very next request, in every process.
 */
export async function findActiveKeyBySecret(db: Database, secret: string): Promise<ActiveApiKey | null> {
  if (!isWellFormedApiKey(secret)) return null;
  return findActiveKeyByHash(db, hashApiKey(secret));
}

/** The active key with this secret hash (for a caller that already checked and hashed the secret). */
export async function findActiveKeyByHash(db: Database, secretHash: string): Promise<ActiveApiKey | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(KEY_COLUMNS)
    .where('secret_hash', '=', secretHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) return null;
  const { revokedAt: _revokedAt, ...active } = toRecord(row);
  return active;
}

// A password hash no password verifies against: operator-created accounts cannot sign in until the
// console sets a real password.
const UNUSABLE_PASSWORD_HASH = '!';

/** The account id for an email, creating the account (unable to sign in) if it does not exist. */
export async function ensureAccount(db: Database, email: string): Promise<{ id: string; created: boolean }> {
  const normalized = email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized)) throw new Error('account must be an email address');
  const inserted = await db
    .insertInto('accounts')
    .values({ id: randomUUID(), email: normalized, password_hash: UNUSABLE_PASSWORD_HASH })
    // The unique index is on lower(email): a concurrent insert of the same address loses quietly.
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) return { id: inserted.id, created: true };
  const existing = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', normalized.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/** The account id for an email, or null. */
export async function findAccountByEmail(db: Database, email: string): Promise<string | null> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}
