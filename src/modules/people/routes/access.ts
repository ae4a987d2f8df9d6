/** The grants the people routes ask for. */
export const read = { permission: { area: 'people' as const, level: 'read' as const } };
/*
 * Every write here takes an Idempotency-Key, stated rather than left to the kernel's default (a POST answering 201,
 * src/platform/idempotency.ts): the kernel records its decision on the shared config object, so the first write route
 * registered (dismissing a duplicate pair, answering 201) used to decide for all the others.
 */
export const write = { permission: { area: 'people' as const, level: 'write' as const }, idempotent: true };
export const admin = { permission: { area: 'people' as const, level: 'admin' as const }, idempotent: true };

/** Said by every route under /api/people/{id}. */
export const MERGED_404 =
  ' A person merged into another answers 404 with `merged_into`, the survivor\'s id: `{ "error": "...", "merged_into": "per_..." }`.';
