import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import * as repo from '../chips.repository.ts';
import * as service from '../chips.service.ts';
import { RegistrySettings, RegistrySettingsPatch } from '../schemas.ts';

const tags = ['Registry: microchips'];

async function settingsOut(q: Parameters<typeof repo.settings>[0], orgId: string) {
  const s = await repo.settings(q, orgId);
  return { publish_chips: s.publish_chips, published_profile: s.profile, updated_at: s.updated_at };
}

/** /api/registry/settings: whether this organization publishes its chips, and the profile it shows. */
export function registrySettingsRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/registry/settings',
    {
      config: { permission: { area: 'registry', level: 'read' } },
      schema: {
        tags,
        summary: "The organization's registry settings",
        description: 'Whether the organization publishes its chips to the lookup, and the profile copy the lookup shows.',
        response: { 200: RegistrySettings },
      },
    },
    async (req) => settingsOut(ctx.db, who(req).orgId),
  );

  app.patch(
    '/api/registry/settings',
    {
      config: { permission: { area: 'registry', level: 'admin' } },
      schema: {
        tags,
        summary: "Change the organization's registry settings",
        description: [
          '`publish_chips: false` removes every entry of the organization from the lookup at once; `true` publishes every',
          'chipped live animal again (except those marked "do not publish this chip"). Any call, even with an empty body,',
          "also copies the organization's current profile (name, email, phone, website) into its entries; otherwise a",
          "profile change reaches the lookup with the organization's next animal change. Needs admin on Registry.",
        ].join(' '),
        body: RegistrySettingsPatch,
        response: { 200: RegistrySettings },
      },
    },
    async (req) => {
      const { orgId, actor } = who(req);
      await service.updateSettings(ctx.db, orgId, req.body.publish_chips, actor);
      // Animal writes decide from the cached settings whether there is anything to publish: clear them everywhere.
      await ctx.changed(req.org?.id);
      return settingsOut(ctx.db, orgId);
    },
  );
}
