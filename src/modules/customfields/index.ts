import type { Module } from '../../platform/context.ts';
import { customFieldRoutes } from './routes.ts';

/** Custom field definitions for animals, housing units and adoption applications. */
export const customFieldsModule: Module = { name: 'customfields', routes: customFieldRoutes };
