/** The grants the operations routes ask for: housing, foster homes and transports are part of the animals area. */
export const read = { permission: { area: 'animals' as const, level: 'read' as const } };

/*
 * Whether a write takes an Idempotency-Key is stated here rather than left to the kernel's default (a POST answering 201,
 * src/platform/idempotency.ts): the kernel records its decision on the route's config object, and a config object is shared
 * by every route using it, so the first write route of each former file decided for all the others. Stated as it has been
 * answered since: every housing and foster write takes the key; no transport write does.
 */
/** Housing (locations, units) and foster (homes, assignments) writes: each takes an Idempotency-Key. */
export const write = { permission: { area: 'animals' as const, level: 'write' as const }, idempotent: true };
/** Transport writes: none takes an Idempotency-Key. */
export const transportWrite = { permission: { area: 'animals' as const, level: 'write' as const }, idempotent: false };
