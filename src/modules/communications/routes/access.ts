/**
 * The grants of the suppressions, preferences and sender routes: one object each, shared by those routes (the kernel
 * records a write's Idempotency-Key decision on its grant object).
 */
export const read = { permission: { area: 'communications' as const, level: 'read' as const } };
export const write = { permission: { area: 'communications' as const, level: 'write' as const } };
export const admin = { permission: { area: 'communications' as const, level: 'admin' as const } };
