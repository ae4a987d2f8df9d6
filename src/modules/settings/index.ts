import type { Module } from '../../platform/context.ts';
import { settingsRoutes } from './routes.ts';

export const settingsModule: Module = { name: 'settings', routes: settingsRoutes };
