import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { filterDescriptions, searchParamsSchema, searchToolInputSchema } from '@directory/domain';

/**
 * The search filters the docs list must be the filters of the code's filter table
 * (packages/domain/src/search/search-filters.ts): a filter added there without a row in docs/api.md
 * and docs/mcp.md, or a row left behind by a filter that was removed, fails here by name.
 */

const ROOT = new URL('../../', import.meta.url);

const FILTERS: string[] = filterDescriptions().map(({ name }) => name);

type DocTable = {
  doc: string;
  /** The heading the parameter table follows. */
  heading: string;
  /** Rows that are not filters: paging and record shaping, as the code's input schema names them. */
  otherParameters: string[];
};

const withoutFilters = (names: string[]) => names.filter((name) => !FILTERS.includes(name));

const TABLES: DocTable[] = [
  {
    doc: 'docs/api.md',
    heading: '### `GET /api/v1/doctors` — search',
    // `ids` turns the request into a batch get (parseDoctorsQuery) and is listed in the same table.
    otherParameters: [...withoutFilters(Object.keys(searchParamsSchema.shape)), 'ids'],
  },
  {
    doc: 'docs/mcp.md',
    heading: '### `search_doctors`',
    otherParameters: withoutFilters(Object.keys(searchToolInputSchema.shape)),
  },
];

/** The first cell of every body row of the first table after `heading`, backticks removed. */
function parameterRows(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) throw new Error(`heading not found: ${heading}`);
  const rows: string[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    rows.push(line);
  }
  // Skip the header row and the |---| separator.
  return rows.slice(2).map((row) => (row.split('|')[1] ?? '').trim().replaceAll('`', ''));
}

describe.each(TABLES)('the search parameter table of $doc', ({ doc, heading, otherParameters }) => {
  const listed = parameterRows(readFileSync(new URL(doc, ROOT), 'utf8'), heading);

  it('lists every filter of the filter table', () => {
    const missing = FILTERS.filter((name) => !listed.includes(name));
    expect(missing, `filters missing from ${doc} (${heading})`).toEqual([]);
  });

  it('lists no filter the filter table lacks', () => {
    const unknown = listed.filter((name) => !FILTERS.includes(name) && !otherParameters.includes(name));
    expect(unknown, `rows of ${doc} (${heading}) that are no filter of the code`).toEqual([]);
  });

  it('lists each parameter once', () => {
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
  });
});
