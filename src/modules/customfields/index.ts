import type { Module } from '../../platform/context.ts';
import { customFieldRoutes } from './routes/custom-fields.ts';

/**
 * Custom field definitions: animals, housing units and adoption applications under Animals; people, shift schedules
 * and campaigns under their own areas.
 */
export const customFieldsModule: Module = { name: 'customfields', routes: customFieldRoutes };
