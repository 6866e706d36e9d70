import { singleLineText } from '@directory/domain';

/**
 * A copy of `value` with every string in it made safe for one line of tool text (singleLineText: no
 * line break, no control character), so a crawled name cannot forge lines of the rendering. Each text
 * rendering starts from such a copy, so a field added to a record later is covered too; the answer's
 * structuredContent is the original, exact.
 */
export function displayable<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return singleLineText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, clean(field)]));
  }
  return value;
}
