/**
 * Whether an `Accept-Encoding` header (RFC 9110 §12.5.3) allows gzip: `gzip` (or its alias `x-gzip`)
 * with a weight above 0, or `*` above 0 when gzip is not refused by name. Split by hand, without a
 * regular expression, so any header is read in linear time.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  let named: boolean | undefined;
  let wildcard = false;
  for (const entry of text.split(',')) {
    const [coding = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const accepted = weightOf(parameters) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') named = (named ?? false) || accepted;
    else if (coding === '*') wildcard = wildcard || accepted;
  }
  return named ?? wildcard;
}

/** The `q` parameter's weight (1 without one, 0 when unreadable: a malformed weight accepts nothing). */
function weightOf(parameters: string[]): number {
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at === -1 || parameter.slice(0, at).trim() !== 'q') continue;
    const weight = Number(parameter.slice(at + 1).trim());
    return Number.isFinite(weight) && weight >= 0 && weight <= 1 ? weight : 0;
  }
  return 1;
}
