/**
 * What the staff's portal routes on people ask of the calling key. One object, shared by the routes that name it, as
 * before the routes were split by URL: the kernel's idempotency hook decides once per object (src/platform/idempotency.ts).
 */
export const peopleWrite = { permission: { area: 'people' as const, level: 'write' as const } };
