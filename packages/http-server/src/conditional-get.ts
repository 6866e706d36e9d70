import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a response body (RFC 9110 §8.8.3): SHA-256 of its exact bytes, 27 base64url
 * characters (162 bits) kept, quoted. Equal bodies get equal tags in every process, so a tag issued by
 * one API server is recognised by all of them, with no state anywhere.
 */
export function entityTagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** A parsed If-None-Match field: `*`, or the opaque tags listed (quotes kept, `W/` dropped). */
export type IfNoneMatch = { any: true } | { any: false; opaqueTags: string[] };

/**
 * The longest If-None-Match value read. A client lists the tags of the representations it holds for a
 * URL (ours are 29 characters each), so 8 KiB leaves room for over 250; a longer value is ignored like a
 * malformed one (the request is answered as unconditional), which bounds what one header can cost.
 */
export const MAX_IF_NONE_MATCH_LENGTH = 8 * 1024;

/**
 * Parses If-None-Match (RFC 9110 §13.1.2): `*` or a comma-separated list of entity tags, weak or
 * strong. A value that does not follow the grammar, or is longer than `maxLength`, gives null: the
 * request is then answered as if it had no condition (a full 200, which is always safe), rather than
 * guessing what was meant.
 *
 * A scanner that reads each character once: the sticky regular expression it replaces backtracked
 * quadratically on a list element that failed to parse after a long run of whitespace.
 */
export function parseIfNoneMatch(value: string, maxLength = MAX_IF_NONE_MATCH_LENGTH): IfNoneMatch | null {
  if (value.length > maxLength) return null;
  if (value.trim() === '*') return { any: true };
  const opaqueTags: string[] = [];
  // One list element per turn (RFC 9110 §5.6.1: empty elements allowed): OWS [ entity-tag ] OWS, then
  // a comma or the end. entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE.
  let at = 0;
  for (;;) {
    at = skipWhitespace(value, at);
    const quote = value.startsWith('W/"', at) ? at + 2 : at;
    if (value[quote] === '"') {
      const closing = closingQuote(value, quote + 1);
      if (closing === -1) return null;
      opaqueTags.push(value.slice(quote, closing + 1));
      at = skipWhitespace(value, closing + 1);
    }
    if (at === value.length) break;
    if (value[at] !== ',') return null;
    at += 1;
  }
  return opaqueTags.length === 0 ? null : { any: false, opaqueTags };
}

/** The first position at or after `from` that is not OWS (space or tab). */
function skipWhitespace(value: string, from: number): number {
  let at = from;
  while (value[at] === ' ' || value[at] === '\t') at += 1;
  return at;
}

/** The position of the DQUOTE that ends a tag whose characters start at `from`, or -1 if none does. */
function closingQuote(value: string, from: number): number {
  for (let at = from; at < value.length; at += 1) {
    const code = value.charCodeAt(at);
    if (code === 0x22) return at;
    // etagc = %x21 / %x23-7E / obs-text (%x80-FF)
    if (code !== 0x21 && !(code >= 0x23 && code <= 0x7e) && !(code >= 0x80 && code <= 0xff)) return -1;
  }
  return -1;
}

/**
 * Whether a request's If-None-Match matches the current representation's tag, so the answer is 304:
 * `*` matches any current representation, and a listed tag matches by the weak comparison that
 * If-None-Match uses (equal opaque tags, `W/` ignored on either side).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const parsed = parseIfNoneMatch(header);
  if (parsed === null) return false;
  if (parsed.any) return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return parsed.opaqueTags.includes(opaque);
}
