import { escapeControlCharacters, escapeJsonControlCharacters } from '@directory/domain';
import type { DeadLetter, ProjectionFailure } from '@directory/event-store';
import type { FailedJob } from './failed-jobs.service.js';

// What the operator commands print. Producers' payloads, rejection reasons (which may quote the data),
// Elasticsearch's reasons (which quote documents) and job ids are not ours: every such text is shown
// with its control characters escaped (escapeControlCharacters), so none can move the cursor, recolour
// or retitle the terminal, or forge a line or a column.

/** A text column: whitespace runs made one space (reasons span lines), cut to `max`, controls escaped. */
export function column(text: string, max?: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return escapeControlCharacters(max === undefined ? flat : flat.slice(0, max));
}

/** One line of `dead-letters list`: id, received, state, event id, source, reason. */
export function deadLetterLine(letter: DeadLetter): string {
  return [
    letter.id,
    letter.receivedAt.toISOString(),
    letter.redrivenAt ? 'redriven' : 'pending',
    column(letter.eventId ?? '-'),
    column(letter.source),
    column(letter.reason, 120),
  ].join('\t');
}

/** `dead-letters show`: the letter as indented JSON of the exact value, with nothing raw a terminal obeys. */
export function deadLetterJson(letter: DeadLetter): string {
  return escapeJsonControlCharacters(JSON.stringify(letter, null, 2));
}

/** One line of `dead-letters projections`. */
export function projectionFailureLine(failure: ProjectionFailure): string {
  return [
    column(failure.placeId),
    failure.lastFailedAt.toISOString(),
    `version ${failure.stateVersion}`,
    `${failure.attempts} attempts`,
    `${failure.status} ${column(failure.errorType)}`,
    column(failure.reason, 160),
  ].join('\t');
}

/** One line of `jobs failed`. */
export function failedJobLine(job: FailedJob): string {
  return [
    column(job.id),
    job.failedAt?.toISOString() ?? '-',
    `${job.attemptsMade} attempts`,
    `${job.events} events`,
    column(job.reason, 160),
  ].join('\t');
}

/**
 * A `--json` document (docs/operations.md, "--json documents"): one indented JSON value and a newline,
 * with nothing raw a terminal obeys; parsed, every value is exact.
 */
export function jsonDocument(value: unknown): string {
  return `${escapeJsonControlCharacters(JSON.stringify(value, null, 2))}\n`;
}

/** One JSON value on one line (NDJSON), with nothing raw a terminal obeys; parsed, every value is exact. */
export function jsonLine(value: unknown): string {
  return `${escapeJsonControlCharacters(JSON.stringify(value))}\n`;
}

/** One dead letter of `dead-letters list --json` (the payload is `show`'s). */
export function deadLetterRecord(letter: DeadLetter) {
  return {
    id: letter.id,
    receivedAt: letter.receivedAt.toISOString(),
    state: letter.redrivenAt ? 'redriven' : 'pending',
    redrivenAt: letter.redrivenAt?.toISOString() ?? null,
    eventId: letter.eventId,
    placeId: letter.placeId,
    source: letter.source,
    reason: letter.reason,
  };
}

/** One place of `dead-letters projections --json`. */
export function projectionFailureRecord(failure: ProjectionFailure) {
  return {
    placeId: failure.placeId,
    stateVersion: failure.stateVersion,
    status: failure.status,
    errorType: failure.errorType,
    reason: failure.reason,
    attempts: failure.attempts,
    firstFailedAt: failure.firstFailedAt.toISOString(),
    lastFailedAt: failure.lastFailedAt.toISOString(),
  };
}

/** One job of `jobs failed --json`. */
export function failedJobRecord(job: FailedJob) {
  return {
    id: job.id,
    failedAt: job.failedAt?.toISOString() ?? null,
    attemptsMade: job.attemptsMade,
    events: job.events,
    reason: job.reason,
  };
}
