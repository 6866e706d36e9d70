import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '@directory/keys';
import { createTestDatabase, type TestDatabase } from '@directory/testing';
import {
  ACCOUNT_TOKEN_RANDOM_BYTES,
  mintAccountToken,
  type AccountTokenPurpose,
} from '../src/accounts/account-token.js';
import { storeAccountToken } from '../src/accounts/account-token.repository.js';
import { confirmEmail, holderOfToken } from '../src/accounts/account.service.js';

const SECRET = 'int-console-secret-of-at-least-32-chars';
const ACCOUNTS = ['ana@example.com', 'ben@example.com', 'cleo@example.com'];

type Step =
  | { kind: 'issue'; account: number; purpose: AccountTokenPurpose }
  | { kind: 'expire'; token: number }
  | { kind: 'tamper'; token: number; position: number }
  | { kind: 'use'; token: number; as: AccountTokenPurpose };

const purpose = fc.constantFrom<AccountTokenPurpose>('verify-email', 'reset-password');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('issue' as const), account: fc.nat(ACCOUNTS.length - 1), purpose }),
  fc.record({ kind: fc.constant('expire' as const), token: fc.nat(20) }),
  fc.record({ kind: fc.constant('tamper' as const), token: fc.nat(20), position: fc.nat(86) }),
  fc.record({ kind: fc.constant('use' as const), token: fc.nat(20), as: purpose }),
);

type Issued = {
  token: string;
  account: number;
  purpose: AccountTokenPurpose;
  expired: boolean;
  used: boolean;
};

// Random sequences of issuing, expiring, altering and using verification and reset tokens of three
// accounts, against the real tables, checked against a model: a token opens something only while it is
// the latest of its account and purpose, unexpired, unused, unaltered and used for its purpose, and then
// only its own account. fast-check prints the seed and path of a failing run; pass both to replay it.
describe('account link tokens in the database', () => {
  let database: TestDatabase;
  let ids: string[];
  beforeAll(async () => {
    database = await createTestDatabase('console-account-tokens');
    ids = await Promise.all(ACCOUNTS.map(async (email) => (await ensureAccount(database.db, email)).id));
  });
  afterAll(async () => {
    await database.drop();
  });

  it('open only the latest unexpired, unused, unaltered token, for its own account and purpose', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        await sql`delete from account_tokens`.execute(database.db);
        await sql`update accounts set email_verified_at = null`.execute(database.db);
        const issued: Issued[] = [];
        const verified = new Set<number>();
        for (const current of steps) {
          if (current.kind === 'issue') {
            const { token, id } = mintAccountToken(
              SECRET,
              current.purpose,
              randomBytes(ACCOUNT_TOKEN_RANDOM_BYTES),
            );
            await storeAccountToken(database.db, {
              id,
              accountId: ids[current.account] ?? '',
              purpose: current.purpose,
              email: ACCOUNTS[current.account] ?? '',
              ttlSeconds: 600,
            });
            // A new token replaces the account's earlier ones of that purpose.
            for (const earlier of issued)
              if (earlier.account === current.account && earlier.purpose === current.purpose)
                earlier.used = true;
            issued.push({
              token,
              account: current.account,
              purpose: current.purpose,
              expired: false,
              used: false,
            });
            continue;
          }
          const target = issued[current.token % Math.max(issued.length, 1)];
          if (target === undefined) continue;
          if (current.kind === 'expire') {
            const [randomPart = ''] = target.token.split('.');
            await sql`update account_tokens set expires_at = now() - interval '1 second'
              where id = encode(sha256(convert_to(${randomPart}, 'UTF8')), 'hex')`.execute(database.db);
            target.expired = true;
            continue;
          }
          if (current.kind === 'tamper') {
            const index = current.position % target.token.length;
            const swapped = target.token[index] === 'A' ? 'B' : 'A';
            const altered = target.token.slice(0, index) + swapped + target.token.slice(index + 1);
            expect(await holderOfToken(database.db, SECRET, target.purpose, altered)).toBeNull();
            expect(await confirmEmail(database.db, SECRET, altered)).toEqual({ kind: 'invalidLink' });
            continue;
          }
          const usable = !target.expired && !target.used;
          const holder = await holderOfToken(database.db, SECRET, current.as, target.token);
          if (usable && current.as === target.purpose)
            expect(holder).toEqual({ accountId: ids[target.account], email: ACCOUNTS[target.account] });
          else expect(holder).toBeNull();
          if (current.as !== 'verify-email') continue;
          const result = await confirmEmail(database.db, SECRET, target.token);
          if (usable && target.purpose === 'verify-email') {
            expect(result).toEqual({ kind: 'verified', accountId: ids[target.account] });
            target.used = true;
            verified.add(target.account);
          } else expect(result).toEqual({ kind: 'invalidLink' });
        }
        // Exactly the accounts whose own verification token was used are verified.
        const rows = await database.db.selectFrom('accounts').select(['id', 'email_verified_at']).execute();
        const verifiedIds = rows
          .filter((row) => row.email_verified_at !== null)
          .map((row) => row.id)
          .sort();
        expect(verifiedIds).toEqual([...verified].map((index) => ids[index]).sort());
      }),
      { numRuns: 80 },
    );
  });
});
