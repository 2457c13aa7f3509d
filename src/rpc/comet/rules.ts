/**
 * The param rules CometBFT's handlers share (rpc/core/env.go), with their exact error texts:
 * optional heights, paging of tx_search / block_search / validators, and result order.
 */
import { HeightNotAvailableError, HeightNotPositiveError, HeightTooHighError, InvalidOrderByError, PageOutOfRangeError, QueryTooLongError } from './errors.js';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;
/** rpc/core maxQueryLength: subscribe and tx_search refuse longer queries. */
export const MAX_QUERY_LENGTH = 512;

/** An optional height: latest when omitted, else within [base, latest]. */
export function getHeight(latest: number, base: number, height: number | undefined): number {
  if (height === undefined) return latest;
  if (height <= 0) throw new HeightNotPositiveError(height);
  if (height > latest) throw new HeightTooHighError(height, latest);
  if (height < base) throw new HeightNotAvailableError(height, base);
  return height;
}

/** per_page: default 30; below 1 → 30; above 100 → 100. */
export function validatePerPage(perPage: number | undefined): number {
  if (perPage === undefined || perPage < 1) return DEFAULT_PER_PAGE;
  return Math.min(perPage, MAX_PER_PAGE);
}

/** page: default 1; must lie in [1, pages] where an empty result still has one page. */
export function validatePage(page: number | undefined, perPage: number, totalCount: number): number {
  if (page === undefined) return 1;
  const pages = Math.max(1, Math.ceil(totalCount / perPage));
  if (page <= 0 || page > pages) throw new PageOutOfRangeError(page, pages);
  return page;
}

export function skipCount(page: number, perPage: number): number {
  return Math.max(0, (page - 1) * perPage);
}

/** One page of `items`, after the rules above. */
export function paginate<T>(items: readonly T[], pagePtr: number | undefined, perPagePtr: number | undefined): T[] {
  const perPage = validatePerPage(perPagePtr);
  const page = validatePage(pagePtr, perPage, items.length);
  const skip = skipCount(page, perPage);
  return items.slice(skip, skip + perPage);
}

export type Order = 'asc' | 'desc';

/** order_by: "asc", "desc", or "" for the method's default. */
export function orderBy(value: string, dflt: Order): Order {
  if (value === '') return dflt;
  if (value === 'asc' || value === 'desc') return value;
  throw new InvalidOrderByError(value);
}

/** Go counts bytes, not characters. */
export function checkQueryLength(query: string): void {
  const n = Buffer.byteLength(query);
  if (n > MAX_QUERY_LENGTH) throw new QueryTooLongError(n);
}
