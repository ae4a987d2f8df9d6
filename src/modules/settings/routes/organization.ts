import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { OrgProfile, OrganizationPatch } from '../schemas.ts';
import { notFound } from '../../../platform/errors.ts';
import * as repo from '../repository.ts';
import * as service from '../service.ts';
import { admin } from './access.ts';

/** /api/settings/organization: the organization profile. */
export function organizationRoutes(app: App, ctx: AppContext) {
  // Organization profile: name, email, phone, website, currency, time zone, country
  app.get(
    '/api/settings/organization',
    {
      config: { permission: { area: 'settings', level: 'read' } },
      schema: { tags: ['Settings'], summary: 'Organization profile', response: { 200: OrgProfile } },
    },
    async (req) => {
      const org = await repo.organizationById(ctx.db, who(req).orgId);
      if (!org) throw notFound('organization');
      return org;
    },
  );
  app.patch(
    '/api/settings/organization',
    {
      config: admin,
      schema: {
        tags: ['Settings'],
        summary: 'Change the organization profile',
        description: '`org_name` in templates comes from `name`.',
        body: OrganizationPatch,
        response: { 200: OrgProfile },
      },
    },
    async (req) => {
      const { org, actor } = who(req);
      const row = await service.changeOrganization(ctx.db, org, actor, req.body);
      await ctx.changed(req.org?.id);
      return row;
    },
  );
}
