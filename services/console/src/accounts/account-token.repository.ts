import { sql } from 'kysely';
import type { Database } from '@directory/database';
import type { AccountTokenPurpose } from './account-token.js';

/** The account and address a usable token was mailed for. */
export type TokenHolder = { accountId: string; email: string };

/**
 * Stores a freshly mailed token (by its id, the hash) and drops the account's earlier tokens of the same
 * purpose: only the latest link works, so an older mail lying around opens nothing.
 */
export async function storeAccountToken(
  db: Database,
  token: { id: string; accountId: string; purpose: AccountTokenPurpose; email: string; ttlSeconds: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('account_tokens')
      .where('account_id', '=', token.accountId)
      .where('purpose', '=', token.purpose)
      .execute();
    await trx
      .insertInto('account_tokens')
      .values({
        id: token.id,
        account_id: token.accountId,
        purpose: token.purpose,
        email: token.email,
        expires_at: sql<Date>`now() + make_interval(secs => ${token.ttlSeconds})`,
      })
      .execute();
  });
}

/** Who a token belongs to while it is unused and unexpired (the database's clock), without using it. */
export async function findUsableToken(
  db: Database,
  id: string,
  purpose: AccountTokenPurpose,
): Promise<TokenHolder | null> {
  const row = await db
    .selectFrom('account_tokens')
    .select(['account_id', 'email'])
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row === undefined ? null : { accountId: row.account_id, email: row.email };
}

/**
 * Uses a token up, atomically: of two requests racing with the same link, one gets the holder and the
 * other null. Run it in the transaction that does what the link is for, so a failure leaves it unused.
 */
export async function consumeToken(
  trx: Database,
  id: string,
  purpose: AccountTokenPurpose,
): Promise<TokenHolder | null> {
  const row = await trx
    .updateTable('account_tokens')
    .set({ used_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['account_id', 'email'])
    .executeTakeFirst();
  return row === undefined ? null : { accountId: row.account_id, email: row.email };
}
