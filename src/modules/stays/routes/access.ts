/** The grants the stay routes ask for: stays, holds and their settings are part of the animals area. */
export const read = { permission: { area: 'animals' as const, level: 'read' as const } };
/*
 * Every stay, hold and stay-settings write takes an Idempotency-Key, stated here rather than left to the kernel's default
 * (a POST answering 201, src/platform/idempotency.ts): the kernel records its decision on the shared config object, so the
 * first write route of a file used to decide for the others (POST intakes, POST stay-subtypes: yes).
 */
export const write = { permission: { area: 'animals' as const, level: 'write' as const }, idempotent: true };
export const admin = { permission: { area: 'animals' as const, level: 'admin' as const }, idempotent: true };
