/** Printable ASCII only: text every folding step below leaves as it is, except case and spaces. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Case- and accent-folding shared by the projection (what is indexed) and the query code (what is
 * searched), so both sides always agree. Elasticsearch only sees already-folded text.
 */
export function foldText(input: string): string {
  // Most names, cities and queries are plain ASCII: Unicode normalization and the mark and ligature
  // replacements cannot change them, so they skip both (the saving is measured by `npm run bench:api`,
  // docs/benchmarks.md).
  if (PRINTABLE_ASCII.test(input)) return input.toLowerCase().replace(/ +/g, ' ').trim();
  return input
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[æ]/g, 'ae')
    .replace(/[ø]/g, 'o')
    .replace(/\s+/g, ' ')
    .trim();
}
