// `directory duplicates --dataset XX [--min-score N] [--json] [--apply]`: propose candidate duplicate
// pairs among a dataset's served records and, with --apply, merge them. Exit codes: docs/operations.md,
// "Exit codes"; the matching: docs/ingestion.md, "Finding duplicates".
import { Command, InvalidArgumentError, Option } from 'commander';
import { databaseTimeouts, loadConfigOrExit } from '@directory/config';
import { createDatabase } from '@directory/database';
import { COUNTRY_CODES, createLinePacer } from '@directory/domain';
import { DEFAULT_MIN_SCORE, type CandidatePair } from '@directory/duplicates';
import { createSearchClient } from '@directory/search-index';
import { applyMerges, scanDuplicates } from './duplicates.service.js';
import { column, jsonDocument } from './operator-text.js';

function score(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed)) throw new InvalidArgumentError('must be a number');
  return parsed;
}

/** One line of the pairs table: score, the two ids and the evidence that made the score. */
export function pairLine(pair: CandidatePair): string {
  const { evidence } = pair;
  return [
    pair.score.toFixed(2),
    column(pair.a),
    column(pair.b),
    `name ${evidence.name.toFixed(2)}${evidence.distinctiveName ? '' : ' (generic)'}`,
    `phone ${evidence.phone}`,
    `website ${evidence.website}`,
    `street ${evidence.street}`,
    evidence.distanceM === null ? 'distance -' : `distance ${evidence.distanceM} m`,
  ].join('\t');
}

/** `directory duplicates …`: `argv` is what follows the command's name. */
export async function runDuplicatesCommand(argv: string[]): Promise<void> {
  const program = new Command()
    .name('duplicates')
    .description(
      "Candidate duplicate pairs among a dataset's served records (the same practice crawled from several " +
        'sources), with the evidence for each. A dry run unless --apply: then every proposed pair is merged ' +
        '(place.merged) into its group’s best record. Exit 1 when a dry run found pairs.',
    )
    .addOption(
      new Option('--dataset <code>', 'the dataset to scan').choices([...COUNTRY_CODES]).makeOptionMandatory(),
    )
    .option('--min-score <n>', 'propose pairs scoring at least this', score, DEFAULT_MIN_SCORE)
    .option('--json', 'print one JSON document on stdout instead of the table')
    .option('--apply', 'write a place.merged for every merge the pairs make (after printing them)')
    .showHelpAfterError()
    // --help exits 0 here; a usage error is thrown, for `directory` to exit 2.
    .exitOverride((error) => {
      if (error.exitCode !== 0) throw error;
    });
  program.parse(argv, { from: 'user' });
  const options = program.opts<{ dataset: string; minScore: number; json?: boolean; apply?: boolean }>();

  const config = loadConfigOrExit();
  const db = createDatabase(config.DATABASE_URL, {
    maxConnections: 2,
    timeouts: databaseTimeouts(config, 'job'),
  });
  const log = (line: string) => process.stderr.write(`[duplicates] ${line}\n`);
  try {
    const lineDue = createLinePacer();
    const scan = await scanDuplicates(db, {
      dataset: options.dataset,
      minScore: options.minScore,
      onProgress: (read) => {
        if (lineDue()) log(`${read} records read`);
      },
    });
    log(
      `${scan.records} served records of ${options.dataset}, ${scan.comparisons} pairs compared, ` +
        `${scan.pairs.length} at score ≥ ${options.minScore}, ${scan.merges.length} merges`,
    );
    if (options.json) {
      process.stdout.write(
        jsonDocument({
          dataset: options.dataset,
          minScore: options.minScore,
          pairs: scan.pairs,
          merges: scan.merges,
        }),
      );
    } else {
      for (const pair of scan.pairs) console.log(pairLine(pair));
      for (const merge of scan.merges)
        console.log(`merge\t${column(merge.placeId)}\tinto\t${column(merge.into)}`);
    }
    if (!options.apply) {
      if (scan.merges.length > 0) {
        log('dry run: nothing written (--apply merges them)');
        process.exitCode = 1;
      }
      return;
    }
    const client = createSearchClient(config.ELASTICSEARCH_URL, { timeoutMs: 60_000, maxRetries: 3 });
    try {
      const applied = await applyMerges(
        { db, search: { client, alias: config.ELASTICSEARCH_INDEX }, siteOrigin: config.SITE_ORIGIN },
        scan.merges,
      );
      log(`applied: ${applied.stored} place.merged events stored, ${applied.deadLettered} rejected`);
      if (applied.deadLettered > 0) process.exitCode = 1;
    } finally {
      await client.close();
    }
  } finally {
    await db.destroy();
  }
}
