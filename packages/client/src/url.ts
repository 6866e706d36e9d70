/** A query parameter's value: lists are sent comma-separated; undefined and null leave the parameter out. */
export type QueryValue = string | number | boolean | readonly string[] | undefined | null;

/**
 * The URL of `path` under `baseUrl` (which may carry a path prefix, e.g. behind a gateway) with `query`.
 * Parameters are sorted by name, so the same request always gives the same URL (the revalidation cache is
 * keyed by it). Each list entry is encoded on its own and the entries joined by plain commas, as batch get
 * expects (an entry's own commas, if any, are encoded).
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Readonly<Record<string, QueryValue>> = {},
): string {
  const base = new URL(baseUrl);
  let prefix = base.pathname;
  while (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
  const parts: string[] = [];
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    const encoded = Array.isArray(value)
      ? (value as readonly string[]).map((entry) => encodeURIComponent(entry)).join(',')
      : encodeURIComponent(String(value));
    parts.push(`${encodeURIComponent(name)}=${encoded}`);
  }
  const search = parts.length === 0 ? '' : `?${parts.join('&')}`;
  return `${base.origin}${prefix}${path}${search}`;
}

/** A path segment, encoded (a record id or anything else a caller passes stays one segment). */
export function pathSegment(value: string): string {
  return encodeURIComponent(value);
}
