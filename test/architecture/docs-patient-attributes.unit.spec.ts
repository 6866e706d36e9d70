import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INSURANCE_SCHEMES, LANGUAGE_CODES } from '@directory/domain';

/**
 * The code lists docs/api.md gives for the API 1.3 patient attributes must be the code's
 * (packages/domain/src/events/patient-attributes.ts): the insurance codes ("Insurance codes") row for row
 * (country, code, name and description, in the table's order), and the languages of "Patient
 * attributes". A code added, renamed or dropped there without the docs fails here, showing it.
 */

const DOC = new URL('../../docs/api.md', import.meta.url);
const HEADING = '### Insurance codes (API 1.3)';

/** The cells of every body row of the first table after the heading, backticks removed. */
function tableRows(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start === -1) throw new Error(`heading not found: ${heading}`);
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) rows.push(line);
    else if (rows.length > 0) break;
  }
  // Skip the header row and the |---| separator; cells hold no `|` of their own.
  return rows.slice(2).map((row) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('`', '')),
  );
}

describe('the patient attribute codes of docs/api.md', () => {
  const markdown = readFileSync(DOC, 'utf8');

  it('list the insurance codes of the code table, row for row', () => {
    const listed = tableRows(markdown, HEADING);
    const expected = Object.entries(INSURANCE_SCHEMES).flatMap(([country, schemes]) =>
      schemes.map((scheme) => [country, scheme.code, scheme.name, scheme.description]),
    );
    expect(listed).toEqual(expected);
  });

  it('list the languages of the code list', () => {
    const listed = /The languages the API knows: `([^`]+)`/.exec(markdown)?.[1];
    expect(listed?.split(/\s+/)).toEqual([...LANGUAGE_CODES]);
  });
});
