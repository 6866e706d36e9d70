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

// One list element (RFC 9110 §5.6.1: empty elements allowed) and its separator, at the current position:
// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text.
const LIST_ELEMENT = /[ \t]*(?:(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*"))?[ \t]*(,|$)/y;

/**
 * Parses If-None-Match (RFC 9110 §13.1.2): `*` or a comma-separated list of entity tags, weak or
 * strong. A value that does not follow the grammar gives null: the request is then answered as if it
 * had no condition (a full 200, which is always safe), rather than guessing what was meant.
 */
export function parseIfNoneMatch(value: string): IfNoneMatch | null {
  if (value.trim() === '*') return { any: true };
  const opaqueTags: string[] = [];
  LIST_ELEMENT.lastIndex = 0;
  while (LIST_ELEMENT.lastIndex < value.length) {
    const match = LIST_ELEMENT.exec(value);
    if (match === null) return null;
    if (match[1] !== undefined) opaqueTags.push(match[1]);
    // Only the end of the value gives an empty match: stop there.
    if (match[2] === '') break;
  }
  return opaqueTags.length === 0 ? null : { any: false, opaqueTags };
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
