import type { Module } from '../../platform/context.ts';
import { keyUse } from '../../platform/auth.ts';
import { organizationRoutes } from './routes/organization.ts';
import { roleRoutes } from './routes/roles.ts';
import { apiKeyRoutes } from './routes/keys.ts';
import { keyUsed } from './repository.ts';

export const settingsModule: Module = {
  name: 'settings',
  register(hooks) {
    // The kernel's key sign-in records a key's last use here: api_keys is this module's table.
    hooks.provide(keyUse, { keyUsed });
  },
  routes(app, ctx) {
    // one file per URL resource (routes/), registered in the order the API description lists them
    organizationRoutes(app, ctx);
    roleRoutes(app, ctx);
    apiKeyRoutes(app, ctx);
  },
};
