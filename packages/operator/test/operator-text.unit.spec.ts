import { describe, expect, it } from 'vitest';
import type { DeadLetter, ProjectionFailure } from '@directory/event-store';
import { formatStatus, needsAttention, type StatusSnapshot } from '../src/attention.js';
import {
  column,
  deadLetterJson,
  deadLetterLine,
  failedJobLine,
  projectionFailureLine,
} from '../src/operator-text.js';

// Erase the screen, set the window title, a C1 CSI, a forged line and column, a bidi override.
const HOSTILE = '\u001b[2J\u001b]0;owned\u0007\u009b31m\nforged\tcolumn\u202e';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const AT = new Date('2026-01-01T10:00:00Z');

const letter: DeadLetter = {
  id: 7,
  eventId: HOSTILE,
  placeId: 'P1',
  reason: `payload.observed.workingHours.${HOSTILE}: Invalid input`,
  raw: { eventId: HOSTILE, name: HOSTILE, nested: [HOSTILE] },
  source: `${HOSTILE}.ndjson:3`,
  receivedAt: AT,
  redrivenAt: null,
};

describe('operator output: producer and crawled text never reaches the terminal raw', () => {
  it('dead-letters list: one line of six columns, every control character escaped', () => {
    const line = deadLetterLine(letter);
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line).not.toContain('\n');
    expect(line.split('\t')).toHaveLength(6);
    expect(line).toContain('\\x1b[2J\\x1b]0;owned\\x07\\x9b31m forged column\\u{202e}');
  });

  it('dead-letters show: JSON of exactly the letter, nothing raw but the indentation', () => {
    const json = deadLetterJson(letter);
    expect(json.replaceAll('\n', '')).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(letter)));
  });

  it('projections and jobs failed: one line each, columns intact', () => {
    const failure: ProjectionFailure = {
      placeId: 'P1',
      stateVersion: 2,
      status: 400,
      errorType: `mapper_parsing_exception${HOSTILE}`,
      reason: `failed to parse field [name]: '${HOSTILE}'`,
      attempts: 1,
      firstFailedAt: AT,
      lastFailedAt: AT,
    };
    const job = { id: HOSTILE, failedAt: AT, attemptsMade: 1, events: 3, reason: HOSTILE };
    for (const [line, columns] of [
      [projectionFailureLine(failure), 6],
      [failedJobLine(job), 5],
    ] as const) {
      expect(line).not.toMatch(RAW_CONTROL);
      expect(line).not.toContain('\n');
      expect(line.split('\t')).toHaveLength(columns);
    }
  });

  it('status: the reason a dependency is not ready (an error message, which may quote an answer) is escaped', () => {
    const snapshot: StatusSnapshot = {
      dependencies: [{ name: 'elasticsearch', ready: false, reason: HOSTILE, durationMs: 1 }],
      queue: null,
      projection: null,
      deadLettersPending: null,
      served: null,
      newestEvent: null,
    };
    const screen = formatStatus(snapshot, needsAttention(snapshot));
    expect(screen).not.toMatch(RAW_CONTROL);
    expect(screen).toMatch(/^ {2}elasticsearch +NOT READY \(\\x1b\[2J.*\)$/m);
    expect(screen).toMatch(/^ATTENTION: elasticsearch is not ready: \\x1b\[2J.*\\u\{202e\}$/m);
  });

  it('cuts a column before escaping, so no escape is cut in half', () => {
    expect(column('ab\u001bcd', 3)).toBe('ab\\x1b');
    expect(column('plain  text\n  here')).toBe('plain text here');
  });
});
