/**
 * Which databases `directory sandbox load` may empty (pure; the facts are read by sandbox.service.ts).
 *
 * The loader writes a marker row (migration 0015) into the database it prepares as the sandbox, naming
 * the sample data it loads. It replaces a database only when that database is its own: marked and holding
 * no event outside the marked sample data, or completely empty (no event, no account, no key), which it
 * then marks. So a live database is never emptied, whatever SANDBOX_DATABASE_URL says or how it is spelled.
 */

/** The sample data the marker names: every event a sandbox holds is one of these. */
export type SandboxMarker = { sampleSeed: number; sampleEvents: number };

export type SandboxDatabaseFacts = {
  holdsAccounts: boolean;
  holdsEvents: boolean;
  marker: SandboxMarker | null;
  /** An event whose id the marked sample data does not contain (false when there is no marker). */
  holdsForeignEvents: boolean;
};

export type SandboxRefusal = 'holds-accounts' | 'unmarked-with-events' | 'foreign-events';

/** Why the database must be left alone, or null when the loader may replace its contents. */
export function sandboxRefusal(facts: SandboxDatabaseFacts): SandboxRefusal | null {
  if (facts.holdsAccounts) return 'holds-accounts';
  if (facts.marker === null) return facts.holdsEvents ? 'unmarked-with-events' : null;
  return facts.holdsForeignEvents ? 'foreign-events' : null;
}

const REFUSAL_MESSAGES: Readonly<Record<SandboxRefusal, string>> = {
  'holds-accounts': 'the database holds accounts or API keys, so it is a live database',
  'unmarked-with-events':
    'the database holds events but no sandbox marker: the loader did not prepare it, so it may be a live ' +
    'database (a sandbox loaded before the marker existed: drop that database and load again)',
  'foreign-events':
    'the sandbox database holds events the loader did not write (is a worker or producer pointed at it?)',
};

/** The database named as the sandbox is not one the loader may empty; nothing was changed. */
export class SandboxRefusedError extends Error {
  readonly refusal: SandboxRefusal;

  constructor(refusal: SandboxRefusal) {
    super(`${REFUSAL_MESSAGES[refusal]}; check SANDBOX_DATABASE_URL. Nothing was changed`);
    this.name = 'SandboxRefusedError';
    this.refusal = refusal;
  }
}

/**
 * The ids of the events a sample (seed, count) holds: what a marked sandbox may contain. Takes the
 * generator so this stays free of the sample data's package (and testable with a stand-in).
 */
export function sampleEventIds(events: Iterable<Record<string, unknown>>): string[] {
  const ids = new Set<string>();
  for (const event of events) if (typeof event['eventId'] === 'string') ids.add(event['eventId']);
  return [...ids];
}
