import { Type } from './schema.ts';

/** Family A: `page` (default 1) and `perPage` (default 25, max 100). */
export const PageQueryA = {
  page: Type.Integer({ minimum: 1, default: 1, description: 'page number, from 1' }),
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
    offset: Type.Integer({ minimum: 0, default: 0, description: 'records to skip' }),
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
