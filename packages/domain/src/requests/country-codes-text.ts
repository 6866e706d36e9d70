import { COUNTRY_CODES, LIVE_COUNTRY_CODES, type CountryCode } from '../events/events.js';

/** `de, es and pt` (or `de, es or pt`): codes listed the way the parameter descriptions write them. */
export function listCodes(codes: ReadonlyArray<string>, conjunction: 'and' | 'or'): string {
  const last = codes.at(-1);
  if (last === undefined || codes.length === 1) return codes.join('');
  return `${codes.slice(0, -1).join(', ')} ${conjunction} ${last}`;
}

const LIVE = new Set<CountryCode>(LIVE_COUNTRY_CODES);

/**
 * The dataset codes as the `country` descriptions name them (served in the OpenAPI document and the MCP
 * tools' schemas), derived from the code lists so a new dataset cannot be left out of a description.
 */
export const COUNTRY_CODES_TEXT = {
  /** Every code a request may name. */
  accepted: listCodes(COUNTRY_CODES, 'or'),
  /** The codes with live data. */
  live: listCodes(LIVE_COUNTRY_CODES, 'and'),
  /** The codes accepted whose pages are always empty. */
  empty: listCodes(
    COUNTRY_CODES.filter((code) => !LIVE.has(code)),
    'and',
  ),
};
