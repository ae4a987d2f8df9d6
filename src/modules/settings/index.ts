import type { Module } from '../../platform/context.ts';
import { keyUse } from '../../platform/auth.ts';
import { settingsRoutes } from './routes.ts';
import { keyUsed } from './repository.ts';

export const settingsModule: Module = {
  name: 'settings',
  register(hooks) {
    // The kernel's key sign-in records a key's last use here: api_keys is this module's table.
    hooks.provide(keyUse, { keyUsed });
  },
  routes: settingsRoutes,
};
