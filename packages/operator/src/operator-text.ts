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
