// `npm run reindex [-- --replay] [--keep-old] [--dry-run] [--wait-for-health green|yellow] [--break-lock]`:
// rebuild the search index with no downtime.
import { Presets, SingleBar } from 'cli-progress';
import { Command, Option } from 'commander';
import { databaseTimeouts, loadConfigOrExit, REINDEX_HEALTH_SETTINGS } from '@directory/config';
import { createDatabase } from '@directory/database';
import { createLinePacer } from '@directory/domain';
import { peakResidentMegabytes } from '@directory/observability';
import { createSearchClient } from '@directory/search-index';
import { nonNegativeInteger, positiveInteger } from './cli-arguments.js';
import type { HealthSetting } from './reindex-guard.js';
import { ReindexLockedError } from './reindex-lock.js';
import {
  reindex,
  ReindexCatchUpError,
  ReindexSwapUnknownError,
  type ReindexProgress,
} from './reindex.service.js';

/** `directory reindex …`: `argv` is what follows the command's name. */
export async function runReindexCommand(argv: string[]): Promise<void> {
  const program = new Command()
    .name('reindex')
    .description(
      'Build a fresh index from the places table, catch up, verify, and swap the alias atomically.',
    )
    .option(
      '--replay',
      'refold every stream from the event store into the places table and the new index in one pass (after a fold or allowlist change)',
    )
    // Not in the help: an experiment measured by `npm run bench:reindex -- --replay --replay-pause-ms N`.
    .addOption(
      new Option('--replay-pause-ms <ms>', 'wait this long after each replayed page')
        .argParser(nonNegativeInteger)
        .hideHelp(),
    )
    // Not in the help: the lanes' count is measured by `npm run bench:scale -- --replay-lanes N`.
    .addOption(
      new Option('--replay-lanes <n>', 'pages a replay works on at the same time')
        .argParser(positiveInteger)
        .hideHelp(),
    )
    .option('--keep-old', 'keep the previous index instead of deleting it after the swap')
    .option('--dry-run', 'report what would be done and change nothing')
    .addOption(
      new Option(
        '--wait-for-health <status>',
        'health the new index must reach before the swap: auto (green with replicas, else yellow), green or yellow (default REINDEX_WAIT_FOR_HEALTH)',
      ).choices(REINDEX_HEALTH_SETTINGS),
    )
    .option(
      '--break-lock',
      'take the reindex lock even if another run holds it (only when that run crashed; it stops before its swap)',
    )
    .showHelpAfterError()
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2 (docs/operations.md, "Exit codes").
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });
  program.parse(argv, { from: 'user' });
  const options = program.opts<{
    replay?: boolean;
    replayPauseMs?: number;
    replayLanes?: number;
    keepOld?: boolean;
    dryRun?: boolean;
    waitForHealth?: HealthSetting;
    breakLock?: boolean;
  }>();

  const config = loadConfigOrExit();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const db = createDatabase(config.DATABASE_URL, { timeouts: databaseTimeouts(config, 'job') });
  const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 120_000, maxRetries: 3 });
  const alias = config.ELASTICSEARCH_INDEX;

  const interactive = process.stderr.isTTY;
  const bar = interactive
    ? new SingleBar(
        {
          format: 'load {bar} {percentage}% | {value}/{total} docs | {rate} docs/s | ETA {eta}s',
          hideCursor: true,
        },
        Presets.shades_classic,
      )
    : undefined;
  let barStarted = false;
  const lineDue = createLinePacer();
  const started = Date.now();
  const onProgress = (event: ReindexProgress) => {
    const rate = () =>
      Math.round(('done' in event ? event.done : 0) / Math.max((Date.now() - started) / 1000, 0.001));
    switch (event.phase) {
      case 'load':
        if (bar) {
          if (!barStarted) bar.start(event.total, 0, { rate: 0 });
          barStarted = true;
          bar.update(event.done, { rate: rate() });
        } else if (lineDue(event.done === event.total)) {
          log(`loaded ${event.done}/${event.total} documents (${rate()} docs/s)`);
        }
        return;
      case 'replay':
        if (lineDue()) log(`replayed ${event.done} streams`);
        return;
      case 'catch-up':
        return;
      case 'leftovers':
        log(`leftover indices of interrupted runs: ${event.indices.join(', ')} (deleted)`);
        return;
      case 'lock':
      case 'merge':
      case 'health':
      case 'verify':
      case 'swap':
      case 'cleanup':
        if (barStarted) bar?.stop();
        log(`${event.phase}: ${event.detail}`);
        return;
    }
  };

  let exitCode = 0;
  try {
    const summary = await reindex({
      db,
      client,
      alias,
      siteOrigin: config.SITE_ORIGIN,
      replay: options.replay,
      replayPauseMs: options.replayPauseMs,
      replayLanes: options.replayLanes,
      keepOld: options.keepOld,
      dryRun: options.dryRun,
      waitForHealth: options.waitForHealth ?? config.REINDEX_WAIT_FOR_HEALTH,
      healthTimeoutMs: config.REINDEX_HEALTH_TIMEOUT_S * 1000,
      breakLock: options.breakLock,
      shape: { shards: config.ELASTICSEARCH_SHARDS, replicas: config.ELASTICSEARCH_REPLICAS },
      onProgress,
    });
    if (summary.dryRun) {
      if (summary.leftovers.length > 0)
        log(`leftover indices of interrupted runs: ${summary.leftovers.join(', ')} (would be deleted)`);
      if (summary.runningLease)
        log(
          `another reindex is running: ${summary.runningLease.holder}, building ${summary.runningLease.index} ` +
            `since ${summary.runningLease.startedAt}; a run now would be refused`,
        );
      log(
        `dry run: would build ${summary.newIndex} with ${summary.servedCount} served places` +
          `${options.replay ? ' after replaying every stream' : ''}, then move ${alias} from ` +
          `[${summary.previousIndices.join(', ') || 'nothing'}]`,
      );
    } else {
      log(
        `done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${alias} → ${summary.newIndex}; ` +
          `${summary.loaded} loaded, ${summary.caughtUp} caught up, ${summary.indexedCount} served documents verified` +
          (summary.replayed ? `, ${summary.replayed} streams replayed` : '') +
          (summary.removedIndices.length
            ? `; deleted ${summary.removedIndices.join(', ')}`
            : '; previous index kept') +
          `; peak RSS ${peakResidentMegabytes()} MB` +
          `; CPU ${((process.cpuUsage().user + process.cpuUsage().system) / 1e6).toFixed(1)} s`,
      );
    }
  } catch (error) {
    if (barStarted) bar?.stop();
    // Refused or incomplete: nothing broke, the operator has to act (wait, or run it again): exit 1.
    // Anything else failed before the swap, a dependency not answering included: exit 3.
    if (error instanceof ReindexLockedError) {
      log(`reindex refused, nothing changed: ${error.message}`);
      exitCode = 1;
    } else if (error instanceof ReindexCatchUpError || error instanceof ReindexSwapUnknownError) {
      log(`reindex incomplete: ${error.message}`);
      exitCode = 1;
    } else {
      log(
        `reindex failed, alias ${alias} unchanged: ${error instanceof Error ? error.message : String(error)}`,
      );
      exitCode = 3;
    }
  } finally {
    await db.destroy();
    await client.close();
  }
  process.exit(exitCode);
}
