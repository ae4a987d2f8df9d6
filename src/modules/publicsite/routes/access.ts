/**
 * What the settings routes ask of the calling key. One object each, shared by the routes that name it, as before the
 * routes were split by URL: the kernel's idempotency hook decides once per object (src/platform/idempotency.ts).
 */
export const read = { permission: { area: 'settings' as const, level: 'read' as const } };
export const admin = { permission: { area: 'settings' as const, level: 'admin' as const } };
