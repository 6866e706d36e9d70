import type { Doctor, DoctorPage, Facets, SearchResult, SearchSuggestion } from '@directory/domain';
import { displayable } from './displayable.js';

// Short text renderings for clients that only show text content; the full records are in
// structuredContent. Each starts from a displayable copy: the only line breaks are the layout's.

export function renderPage(input: DoctorPage): string {
  const page = displayable(input);
  const facets = page.facets === undefined ? [] : facetLines(page.facets);
  if (page.doctors.length === 0) {
    const tryNext = page.suggestions === undefined ? [] : suggestionLines(page.suggestions);
    return ['No doctors match these filters.', ...tryNext, ...facets].join('\n');
  }
  const lines = page.doctors.map((doctor, index) => `${index + 1}. ${summaryLine(doctor)}`);
  const paging = page.page.hasMore
    ? `More results: call search_doctors again with the same filters and cursor "${page.page.nextCursor}".`
    : 'This is the last page.';
  return [`${page.page.count} doctors:`, ...lines, paging, ...facets].join('\n');
}

/** What to try after an empty page: each suggestion as the argument to change, or a general hint. */
function suggestionLines(suggestions: ReadonlyArray<SearchSuggestion>): string[] {
  if (suggestions.length === 0)
    return ['Nothing close finds records: try fewer filters, fewer or other words in q, or another city.'];
  const lines = suggestions.map((suggestion) => {
    const found = `finds ${suggestion.resultCount} ${suggestion.resultCount === 1 ? 'record' : 'records'}`;
    switch (suggestion.kind) {
      case 'query':
        return `- q "${suggestion.q}" ${found}`;
      case 'radius':
        return `- radius ${suggestion.radius} (metres) ${found}`;
      case 'city':
        return `- city "${suggestion.city}"${suggestion.name === null ? '' : ` (${suggestion.name})`} ${found}`;
    }
  });
  return [
    'Try instead (call search_doctors again with this one argument changed, every other kept):',
    ...lines,
  ];
}

/** One line per facet: each value as its argument takes it, its label, and how many records it finds. */
function facetLines(facets: Facets): string[] {
  const lines = Object.entries(facets).map(([name, values]) => {
    const listed = values.map(({ value, count, label }) =>
      label === undefined ? `${value} ${count}` : `${value} "${label}" ${count}`,
    );
    return `- ${name}: ${listed.length === 0 ? 'none' : listed.join(', ')}`;
  });
  return [
    'Facets (records each value finds; pass the value as that argument, every other filter kept):',
    ...lines,
  ];
}

export function renderDoctor(input: Doctor): string {
  const doctor = displayable(input);
  const address = [
    doctor.address.street,
    [doctor.address.postalCode, doctor.address.city].filter(isPresent).join(' '),
    doctor.address.country,
  ]
    .filter((part) => isPresent(part) && part !== '')
    .join(', ');
  const fields: Array<[string, string | null]> = [
    ['Name', doctor.name],
    ['Legal name', doctor.legalName],
    ['Category', [doctor.primaryType, ...doctor.specialties].filter(isPresent).join(', ') || null],
    ['Address', address || null],
    [
      'Phone',
      doctor.phone === null ? null : `${doctor.phone}${doctor.phoneType ? ` (${doctor.phoneType})` : ''}`,
    ],
    [
      'WhatsApp-eligible',
      `${doctor.whatsappEligible ? 'yes' : 'no'} (technical reachability signal only, not consent to be contacted)`,
    ],
    ['Email', doctor.email],
    ['Website', doctor.website],
    ['Rating', ratingText(doctor)],
    ['Verified', doctor.verified ? 'yes' : 'no'],
    ['Profile', doctor.profileUrl],
    ['Id', doctor.id],
  ];
  return fields
    .filter((field): field is [string, string] => field[1] !== null)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
}

// An unknown review count is not zero reviews: then the rating stands alone.
function ratingText({ rating, reviewCount }: Doctor): string | null {
  if (rating === null) return null;
  if (reviewCount === null) return `${rating}`;
  return `${rating} (${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'})`;
}

function summaryLine(doctor: SearchResult): string {
  return [
    doctor.name ?? doctor.legalName ?? '(no published name)',
    doctor.primaryType,
    doctor.address.city,
    doctor.verified ? 'verified' : null,
    // Only a search with near has it.
    doctor.distanceMeters === undefined ? null : `${doctor.distanceMeters} m away`,
    `id ${doctor.id}`,
  ]
    .filter(isPresent)
    .join(' · ');
}

function isPresent<T>(value: T | null): value is T {
  return value !== null;
}
