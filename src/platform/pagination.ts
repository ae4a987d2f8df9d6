import { Type } from './schema.ts';

/** Deepest row a list may be asked to skip; keeps every LIMIT/OFFSET a safe integer. */
const MAX_OFFSET = 1_000_000_000;
/** With at most 100 per page, (page - 1) * perPage stays within MAX_OFFSET. */
const MAX_PAGE = MAX_OFFSET / 100 + 1;

/** Family A: `page` (default 1, at most 10,000,001) and `perPage` (default 25, max 100). */
export const PageQueryA = {
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `page number, from 1 to ${MAX_PAGE}` }),
  perPage: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'records per page, at most 100' }),
};
export const MetaA = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  perPage: Type.Integer(),
  totalPages: Type.Integer(),
});
export function metaA(total: number, page: number, perPage: number) {
  return { total, page, perPage, totalPages: Math.ceil(total / perPage) };
}

/** Family B: `limit` and `offset`; bounds differ per list, so they are built per route. */
export function pageQueryB(max = 100, dflt = 25) {
  return {
    limit: Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `page size, 1 to ${max}` }),
    offset: Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: `records to skip, 0 to ${MAX_OFFSET}` }),
  };
}
export const PageFieldsB = {
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
};
/** Reads one more row than asked so `has_more` needs no count. */
export function pageB<T>(rows: T[], limit: number, offset: number) {
  return { results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit };
}
