import type { App, AppContext } from '../../../platform/context.ts';
import { who } from '../../../platform/context.ts';
import { Type, Nullable, StringEnum, Timestamp, type Static } from '../../../platform/schema.ts';
import { notFound } from '../../../platform/errors.ts';
import { pageB, pageQueryB, PageFieldsB } from '../../../platform/pagination.ts';
import { AREAS, allows } from '../../../platform/permissions.ts';
import { AREA_OF_ENTITY_SQL } from '../areas.ts';
import type { Queryable } from '../../../platform/db/db.ts';
import { kx, sql, type InferResult } from '../../../platform/db/kysely.ts';

const Change = Type.Object({ before: Type.Unknown(), after: Type.Unknown() });
export const ActivityEntry = Type.Object(
  {
    id: Type.String({ description: 'increases with time' }),
    at: Timestamp(),
    actor: Nullable(
      Type.String({ description: '`key:<id>` for an API key, `seed`, or null for the public (a form sent from the website)' }),
    ),
    key_id: Nullable(Type.String({ description: 'the API key, when the actor is one' })),
    action: Type.String({ description: 'create, update, delete, or a verb of the area (publish, convert, send…)' }),
    area: StringEnum(AREAS),
    entity_type: Type.String(),
    entity_id: Type.String(),
    fields: Type.Array(Type.String(), { description: 'fields the change touched, when the row names them' }),
    changes: Nullable(
      Type.Record(Type.String(), Change, {
        description: 'before/after values by field, for changes recorded with them; null for older rows that only name fields',
      }),
    ),
    detail: Type.Unknown({ description: 'everything the row recorded, as written' }),
  },
  { $id: 'ActivityEntry' },
);
type EntryT = Static<typeof ActivityEntry>;
const ActivityList = Type.Object({ results: Type.Array(ActivityEntry), ...PageFieldsB }, { $id: 'ActivityList' });
const Query = Type.Object({
  ...pageQueryB(100, 50),
  entity_type: Type.Optional(Type.String({ maxLength: 64, description: 'the kind of record, e.g. animal, person, task' })),
  entity_id: Type.Optional(Type.String({ maxLength: 64, description: 'one record (with or without entity_type)' })),
  person_id: Type.Optional(Type.String({ maxLength: 64, description: 'changes to this person, or that name them (detail.person_id)' })),
  area: Type.Optional(StringEnum(AREAS)),
  actor: Type.Optional(Type.String({ maxLength: 100, description: 'exactly as shown, e.g. key:key_…' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'at or after' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'before' })),
});

const area = sql<string>`${sql.raw(AREA_OF_ENTITY_SQL)}`;
/** The organization's audit rows in the areas given, with the area each belongs to. */
function entries(q: Queryable, orgId: string, areas: readonly string[]) {
  return kx(q)
    .selectFrom('audit_log')
    .select(['id', 'created_at', 'actor', 'action', 'entity_type', 'entity_id', 'detail', area.as('area')])
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`(${area}) = ANY(${areas}::text[])`);
}
type Row = InferResult<ReturnType<typeof entries>>[number];

function toEntry(r: Row): EntryT {
  const d = r.detail as Record<string, unknown> | unknown[] | null;
  let fields: string[] = [];
  let changes: EntryT['changes'] = null;
  if (Array.isArray(d)) fields = d.filter((x): x is string => typeof x === 'string');
  else if (d && typeof d === 'object') {
    if (d.changes && typeof d.changes === 'object') {
      changes = d.changes as EntryT['changes'];
      fields = Object.keys(d.changes);
    } else if (Array.isArray(d.fields)) fields = (d.fields as unknown[]).filter((x): x is string => typeof x === 'string');
    else if (r.action === 'update') fields = Object.keys(d);
  }
  return {
    id: String(r.id),
    at: r.created_at,
    actor: r.actor,
    key_id: r.actor?.startsWith('key:') ? r.actor.slice(4) : null,
    action: r.action,
    area: r.area as EntryT['area'],
    entity_type: r.entity_type,
    entity_id: r.entity_id,
    fields,
    changes,
    detail: r.detail,
  };
}

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
        querystring: Query,
        response: { 200: ActivityList },
      },
    },
    async (req) => {
      const { orgId, principal } = who(req);
      const areas = AREAS.filter((a) => allows(principal.grants, a, 'read'));
      const f = req.query;
      let list = entries(req.db, orgId, areas);
      if (f.entity_type !== undefined) list = list.where('entity_type', '=', f.entity_type);
      if (f.entity_id !== undefined) list = list.where('entity_id', '=', f.entity_id);
      if (f.person_id !== undefined) {
        const person = f.person_id;
        list = list.where(sql<boolean>`((entity_type = 'person' AND entity_id = ${person}) OR detail->>'person_id' = ${person})`);
      }
      if (f.area !== undefined) list = list.where(sql<boolean>`(${area}) = ${f.area}`);
      if (f.actor !== undefined) list = list.where('actor', '=', f.actor);
      if (f.from !== undefined) list = list.where('created_at', '>=', sql<Date>`${f.from}`);
      if (f.to !== undefined) list = list.where('created_at', '<', sql<Date>`${f.to}`);
      const rows = await list
        .orderBy('id', 'desc')
        .limit(f.limit + 1)
        .offset(f.offset)
        .execute();
      return pageB(rows.map(toEntry), f.limit, f.offset);
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
      const row = await entries(ctx.db, orgId, areas).where('id', '=', req.params.id).executeTakeFirst();
      if (!row) throw notFound('activity entry');
      return toEntry(row);
    },
  );
}
