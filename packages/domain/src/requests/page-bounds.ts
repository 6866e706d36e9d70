/**
 * How large a page of search results and its cursor may be: shared by the request's parameters, the
 * page's schema, the cursor and the search document's sort key.
 */
export const LIMIT_MAX = 100;
export const CURSOR_MAX_LENGTH = 2048;

/**
 * The longest sort key a cursor carries, in code points: what keeps every issued cursor within
 * CURSOR_MAX_LENGTH (cursor.ts, "Length", works out the worst case).
 */
export const SORT_NAME_MAX_CODE_POINTS = 200;
