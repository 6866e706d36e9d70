import type { SpecialtiesPage } from '@directory/domain';
import { displayable } from './displayable.js';

// A short text rendering of the specialties list for clients that only show text content; the list
// itself is in structuredContent. The labels are ours, but pass through displayable like any rendered data.
export function renderSpecialties(input: SpecialtiesPage): string {
  const list = displayable(input);
  if (list.specialties.length === 0) return 'No specialties: this dataset has no published records with one.';
  const lines = list.specialties.map(({ code, label, count }) => {
    const records = count === undefined ? '' : ` (${count} ${count === 1 ? 'record' : 'records'})`;
    return `- ${code}: ${label}${records}`;
  });
  return [
    `${list.specialties.length} specialties:`,
    ...lines,
    'Pass a code as the specialty argument of search_doctors.',
  ].join('\n');
}
