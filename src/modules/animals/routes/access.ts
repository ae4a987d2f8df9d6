/** The grants of the animal record routes (microchips, weights): read, write or admin on Animals. */
export const read = { permission: { area: 'animals' as const, level: 'read' as const } };
export const write = { permission: { area: 'animals' as const, level: 'write' as const } };
export const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };
