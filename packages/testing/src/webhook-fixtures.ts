import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@directory/database';

/**
 * An account with one webhook endpoint (following `de`, a placeholder secret) for specs that need
 * delivery rows to hang off something and never send: returns the endpoint's id.
 */
export async function createQuietWebhookEndpoint(db: Database): Promise<string> {
  const accountId = randomUUID();
  await db
    .insertInto('accounts')
    .values({ id: accountId, email: `${accountId}@example.com`, password_hash: '!' })
    .execute();
  const endpoint = await sql<{ id: string }>`
    insert into webhook_endpoints (account_id, url, countries, secret_ciphertext)
    values (${accountId}, 'https://hooks.example.com/in', '{de}', '\\x00'::bytea) returning id`.execute(db);
  const id = endpoint.rows[0]?.id;
  if (id === undefined) throw new Error('no webhook endpoint was made');
  return id;
}
