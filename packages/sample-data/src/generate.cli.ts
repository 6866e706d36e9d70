import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { Command, InvalidArgumentError } from 'commander';
import { generateEvents, type GenerationSummary } from './generate-events.js';

const CHUNK_CHARS = 256 * 1024;
const PROGRESS_INTERVAL_MS = 1_000;

function parseWholeNumber(name: string, allowNegative: boolean) {
  return (value: string): number => {
    const pattern = allowNegative ? /^-?\d+$/ : /^\d+$/;
    const parsed = Number(value);
    if (!pattern.test(value.trim()) || !Number.isSafeInteger(parsed)) {
      throw new InvalidArgumentError(
        `${name} must be a whole number${allowNegative ? '' : ' ≥ 0'}, got "${value}".`,
      );
    }
    return parsed;
  };
}

function parseStartTime(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError(
      `expected an ISO 8601 date-time like 2026-01-01T00:00:00Z, got "${value}".`,
    );
  }
  return value;
}

type CliOptions = { count: number; seed: number; out: string; startTime?: string; progress: boolean };

const program = new Command()
  .name('data:generate')
  .description('Write deterministic, realistic sample place events as NDJSON (one event per line).')
  .option('-n, --count <n>', 'number of events to write', parseWholeNumber('--count', false), 20_000)
  .option(
    '-s, --seed <n>',
    'seed; the same seed and count give byte-identical output',
    parseWholeNumber('--seed', true),
    42,
  )
  .option('-o, --out <file>', 'output file, or - for stdout', '-')
  .option(
    '--start-time <iso>',
    'occurredAt of the first event (default 2026-01-01T00:00:00Z)',
    parseStartTime,
  )
  .option('--no-progress', 'do not print progress lines on stderr')
  .showHelpAfterError()
  .action(async (options: CliOptions) => {
    await run(options);
  });

async function run(options: CliOptions): Promise<void> {
  const toStdout = options.out === '-';
  const output: Writable = toStdout ? process.stdout : createWriteStream(options.out);
  const failed = new Promise<never>((_, reject) => output.once('error', reject));
  failed.catch(() => undefined);
  const started = performance.now();
  let lastProgress = started;
  let written = 0;
  let chunk = '';

  const flush = async () => {
    if (chunk === '') return;
    const ready = output.write(chunk);
    chunk = '';
    // Backpressure: wait for the stream to drain so a slow disk or pipe never piles up in memory.
    if (!ready) await Promise.race([once(output, 'drain'), failed]);
  };

  const events = generateEvents({ count: options.count, seed: options.seed, startTime: options.startTime });
  let step = events.next();
  while (step.done !== true) {
    chunk += `${JSON.stringify(step.value)}\n`;
    written++;
    if (chunk.length >= CHUNK_CHARS) {
      await flush();
      const now = performance.now();
      if (options.progress && now - lastProgress >= PROGRESS_INTERVAL_MS) {
        lastProgress = now;
        process.stderr.write(
          `data:generate: ${written}/${options.count} events (${percent(written, options.count)})\n`,
        );
      }
    }
    step = events.next();
  }
  await flush();
  if (!toStdout) {
    output.end();
    await Promise.race([once(output, 'finish'), failed]);
  }
  const seconds = (performance.now() - started) / 1000;
  printSummary(step.value, toStdout ? 'stdout' : options.out, seconds);
}

function printSummary(summary: GenerationSummary, target: string, seconds: number) {
  const rate = Math.round(summary.events / Math.max(seconds, 1e-6));
  const types = Object.entries(summary.byType)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([type, count]) => `  ${type.padEnd(20)} ${count}`);
  const countries = Object.entries(summary.placesByCountry)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([country, count]) => `${country} ${count}`)
    .join(', ');
  const lines = [
    `data:generate: wrote ${summary.events} events to ${target} in ${seconds.toFixed(2)}s (${rate} events/s)`,
    ...types,
    `  invalid              ${summary.invalid}`,
    `  duplicates           ${summary.duplicates} (included above)`,
    `  out-of-order         ${summary.outOfOrder} (included above)`,
    `  places               ${summary.places} (${countries})`,
    `  served-estimate      ${summary.servedEstimate}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '100%' : `${Math.floor((part / whole) * 100)}%`;
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = (error as { code?: unknown }).code;
  // A closed pipe (`… | head`) is the reader saying it has enough, not a failure.
  if (code === 'EPIPE') process.exit(0);
  process.stderr.write(`data:generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
