/**
 * Case- and accent-folding shared by the projection (what is indexed) and the query code (what is
 * searched), so both sides always agree. Elasticsearch only sees already-folded text.
 */
export function foldText(input: string): string {
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
