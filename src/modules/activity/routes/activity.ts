import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB } from '../../../platform/pagination.ts';
import { AREAS, allows } from '../../../platform/permissions.ts';
import { ActivityEntry, ActivityList, ActivityQuery } from '../schemas.ts';
import { activityEntry, listActivity } from '../repository.ts';

const NARROW =
  'Reading activity needs read on Settings; entries are narrowed to the areas the key may read (each kind of record belongs ' +
  'to one area: animals and everything about them — care, medical, housing, fosters, transports, stays — to Animals; people ' +
  'to People; donations, campaigns, auctions and the wish list to Fundraising; messages, templates, inboxes and ' +
  'conversations to Communications; shifts and volunteers to Shifts; events, forms, tasks, partners and the registry to ' +
  'their own areas; organization, roles, keys and field definitions to Settings). Nothing here can be changed or deleted.';

export function activityRoutes(app: App, ctx: AppContext) {
  const tags = ['Activity'];
  app.get(
    '/api/activity',
    {
      config: { permission: { area: 'settings', level: 'read' }, readReplica: true },
      schema: {
        tags,
        summary: 'What changed, newest first',
        description:
          'Every change recorded in the audit journal: who (actor and key), what record, which fields, and before/after values ' +
          `where the change recorded them. ${NARROW}`,
        querystring: ActivityQuery,
        response: { 200: ActivityList },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const areas = AREAS.filter((a) => allows(principal.grants, a, 'read'));
      const f = req.query;
      return pageB(await listActivity(req.db, orgId, areas, f), f.limit, f.offset);
    },
  );
  app.get(
    '/api/activity/:id',
    {
      config: { permission: { area: 'settings', level: 'read' } },
      schema: {
        tags,
        summary: 'One activity entry',
        description: `An entry of an area the key may not read answers 404. ${NARROW}`,
        params: Type.Object({ id: Type.String({ pattern: '^[0-9]{1,18}$' }) }),
        response: { 200: ActivityEntry },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const areas = AREAS.filter((a) => allows(principal.grants, a, 'read'));
      const entry = await activityEntry(ctx.db, orgId, areas, req.params.id);
      if (!entry) throw notFound('activity entry');
      return entry;
    },
  );
}
