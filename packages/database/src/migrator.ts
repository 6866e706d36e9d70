import { Migrator, NO_MIGRATIONS, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import {
  applySessionDefaults,
  createDatabase,
  ensureDatabaseExists,
  type SessionDefaults,
} from './connection.js';
import * as eventStore from './migrations/0001-event-store.js';
import * as accountsAndKeys from './migrations/0002-accounts-and-keys.js';
import * as consoleSessions from './migrations/0003-console-sessions.js';
import * as faultRecords from './migrations/0004-fault-records.js';
import * as changesFeed from './migrations/0005-changes-feed.js';
import * as keyLifecycle from './migrations/0006-key-lifecycle.js';
import * as lz4Documents from './migrations/0007-lz4-documents.js';
import * as lagSince from './migrations/0008-lag-since.js';
import * as feedSnapshot from './migrations/0009-feed-snapshot.js';
import * as sweepClaims from './migrations/0010-sweep-claims.js';
import * as changeTimes from './migrations/0011-change-times.js';
import * as webhooks from './migrations/0012-webhooks.js';
import * as webhookSchedule from './migrations/0013-webhook-schedule.js';
import * as webhookRetention from './migrations/0014-webhook-retention.js';
import * as sandboxMarker from './migrations/0015-sandbox-marker.js';
import * as placeMerges from './migrations/0016-place-merges.js';
import * as accountTokens from './migrations/0017-account-tokens.js';
import * as accountEvents from './migrations/0018-account-events.js';
import * as twoFactorAndDeletion from './migrations/0019-two-factor-and-deletion.js';
import * as mergedProfilePages from './migrations/0020-merged-profile-pages.js';
import * as doctorDigest from './migrations/0021-doctor-digest.js';
import * as documentDigest from './migrations/0022-document-digest.js';

// Migrations live in code (no directory scanning), so they run the same from source, tests and bundles.
const migrations: Record<string, Migration> = {
  '0001-event-store': eventStore,
  '0002-accounts-and-keys': accountsAndKeys,
  '0003-console-sessions': consoleSessions,
  '0004-fault-records': faultRecords,
  '0005-changes-feed': changesFeed,
  '0006-key-lifecycle': keyLifecycle,
  '0007-lz4-documents': lz4Documents,
  '0008-lag-since': lagSince,
  '0009-feed-snapshot': feedSnapshot,
  '0010-sweep-claims': sweepClaims,
  '0011-change-times': changeTimes,
  '0012-webhooks': webhooks,
  '0013-webhook-schedule': webhookSchedule,
  '0014-webhook-retention': webhookRetention,
  '0015-sandbox-marker': sandboxMarker,
  '0016-place-merges': placeMerges,
  '0017-account-tokens': accountTokens,
  '0018-account-events': accountEvents,
  '0019-two-factor-and-deletion': twoFactorAndDeletion,
  '0020-merged-profile-pages': mergedProfilePages,
  '0021-doctor-digest': doctorDigest,
  '0022-document-digest': documentDigest,
};

function migratorFor<Schema>(db: Kysely<Schema>): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((migration) => migration.status === 'Error');
    throw new Error(
      `migration ${failed?.migrationName ?? '(unknown)'} failed: ${result.error instanceof Error ? result.error.message : JSON.stringify(result.error)}`,
      {
        cause: result.error,
      },
    );
  }
  return (result.results ?? []).map((migration) => migration.migrationName);
}

/**
 * Applies every pending migration, then the session defaults (`applySessionDefaults`: every run, so a
 * changed timeout in the configuration reaches the database); returns the migrations applied (empty when
 * already up to date).
 */
export async function migrateToLatest<Schema>(
  db: Kysely<Schema>,
  sessionDefaults?: SessionDefaults,
): Promise<string[]> {
  const applied = unwrap(await migratorFor(db).migrateToLatest());
  await applySessionDefaults(db, sessionDefaults);
  return applied;
}

/**
 * What `directory migrate` does for one database: creates it if it does not exist yet, then applies
 * every pending migration and the session defaults, over a connection of its own.
 */
export async function prepareDatabase(
  connectionString: string,
  sessionDefaults: SessionDefaults,
): Promise<{ created: boolean; applied: string[] }> {
  const created = await ensureDatabaseExists(connectionString);
  const db = createDatabase(connectionString, { maxConnections: 1 });
  try {
    return { created, applied: await migrateToLatest(db, sessionDefaults) };
  } finally {
    await db.destroy();
  }
}

/** Reverts every migration (tests and local resets only). */
export async function migrateDownAll<Schema>(db: Kysely<Schema>): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateTo(NO_MIGRATIONS));
}
