// `npm run status [-- --json]`: one screen for an operator. Exit 0 when all is well, 1 when something
// needs attention (for cron), 3 when a dependency did not answer (docs/operations.md, "Exit codes").
import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import { createRedisClient, loadConfigOrExit, queuePrefix } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createIngestQueue } from '@directory/ingest';
import { createSearchClient } from '@directory/search-index';
import { formatStatus, needsAttention, statusDocument } from './attention.js';
import { jsonDocument } from './operator-text.js';
import { readStatus } from './status.service.js';

/** `directory status …`: `argv` is what follows the command's name. */
export async function runStatusCommand(argv: string[]): Promise<void> {
  const program = new Command('status')
    .description(
      'Dependencies, queue, projection lag, dead letters and served counts; exit 0 all well, ' +
        '1 something needs attention, 3 a dependency did not answer.',
    )
    .option('--json', 'print one JSON document on stdout instead of the screen')
    .exitOverride();
  program.parse(argv, { from: 'user' });
  const options = program.opts<{ json?: boolean }>();

  const config = loadConfigOrExit();
  const timeoutMs = config.READINESS_TIMEOUT_MS * 2;
  const db = createDatabase(config.DATABASE_URL);
  // One attempt, no reconnect loop: a status command reports a dead Redis, it does not wait for it.
  const redis = createRedisClient(config, 'probe', { timeoutMs });
  redis.on('error', () => undefined);
  // connect() resolves only once Redis answers its ready check: a paused Redis would hold it for ever.
  await Promise.race([redis.connect(), sleep(timeoutMs)]).catch(() => undefined);
  const queue = createIngestQueue({ connection: redis, prefix: queuePrefix(config) });
  const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs, maxRetries: 0 });

  let exitCode: number;
  try {
    const snapshot = await readStatus({
      db,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      queue,
      search: { client, alias: config.ELASTICSEARCH_INDEX },
      timeoutMs,
      now: () => new Date(),
    });
    const attention = needsAttention(snapshot);
    process.stdout.write(
      options.json ? jsonDocument(statusDocument(snapshot, attention)) : formatStatus(snapshot, attention),
    );
    const unreachable = snapshot.dependencies.some((dependency) => !dependency.ready);
    exitCode = unreachable ? 3 : attention.length > 0 ? 1 : 0;
  } finally {
    await Promise.allSettled([queue.close(), db.destroy(), client.close()]);
    redis.disconnect();
  }
  // Leave now: BullMQ and the clients may hold timers after closing.
  process.exit(exitCode);
}
