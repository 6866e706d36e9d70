import type { SearchFilters } from './search-filters.js';

/**
 * How a search orders its records (`sort`) and what a count may cost (`count`).
 *
 * - `name`: folded name, then place id: the first version's order and the default without `near`.
 * - `distance`: arc distance from `near`, then place id: the default with `near`.
 * - `relevance`: the relevance score of `q` (search-relevance.ts), best first, then place id. Without
 *   `q` every record scores alike and the order is the place id's (with `near`, nearer scores higher).
 *
 * A cursor binds the order it was issued for, but only when it is not the default: a request that
 * leaves `sort` out and one that names its default get the same cursors, the ones 1.2 issued.
 */
export const SORT_ORDERS = ['relevance', 'name', 'distance'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** `count=true` counts exactly up to this many matches; past it `page.total` is this lower bound. */
export const TOTAL_EXACT_UP_TO = 10_000;

/** The order a search uses: the one asked for, else the default of its filters. */
export function sortOrderOf(filters: SearchFilters, sort: SortOrder | undefined): SortOrder {
  return sort ?? defaultSortOrder(filters);
}

/** The order of a search that names none. */
export function defaultSortOrder(filters: SearchFilters): SortOrder {
  return filters.near === undefined ? 'name' : 'distance';
}

/** The order a cursor binds: the one asked for when it is not the default, else none (see above). */
export function boundSortOrder(filters: SearchFilters, sort: SortOrder | undefined): SortOrder | undefined {
  return sort === undefined || sort === defaultSortOrder(filters) ? undefined : sort;
}
