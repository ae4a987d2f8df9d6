import type { Module } from '../../platform/context.ts';

/** Animal operations (issue 4): housing, custom fields, foster homes, transports. */
export const operationsModule: Module = { name: 'operations', routes() {} };
