import { Type } from '../../../platform/schema.ts';

/** The grants of the care routes (read, write or admin on Animals) and their empty answer. */
export const read = { permission: { area: 'animals' as const, level: 'read' as const } };
export const write = { permission: { area: 'animals' as const, level: 'write' as const } };
export const admin = { permission: { area: 'animals' as const, level: 'admin' as const } };
export const noContent = { 204: Type.Null() };
