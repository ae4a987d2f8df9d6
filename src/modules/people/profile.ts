/** The Family B read of a person (with standing flags and custom fields) and the person's custom field values. */
import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit, changesOf } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { checkCustomFields } from '../customfields/public.ts';
import { requireLivePerson } from './live.ts';
import type { FlagName } from './depth.schemas.ts';

export async function personB(q: Queryable, orgId: string, id: string) {
  await requireLivePerson(q, orgId, id);
  const r = first(
    await kx(q)
      .selectFrom('people as p')
      .select([
        'p.id',
        'p.first_name',
        'p.last_name',
        'p.email',
        'p.phone',
        'p.roles',
        'p.tags',
        'p.custom_fields',
        'p.created_at',
        'p.updated_at',
      ])
      .select(
        sql<FlagName[]>`ARRAY(SELECT f.flag FROM person_flags f WHERE f.organization_id = p.organization_id AND f.person_id = p.id
                     AND f.cleared_at IS NULL ORDER BY f.created_at, f.id)`.as('flags'),
      )
      .where('p.organization_id', '=', orgId)
      .where('p.id', '=', id)
      .execute(),
  );
  return { ...r, custom_fields: r.custom_fields as Record<string, unknown>, display_name: `${r.first_name} ${r.last_name}`.trim() };
}

export async function setCustomFields(db: Db, orgId: string, id: string, values: Record<string, unknown>, actor: string) {
  await db.tx(async (q) => {
    await requireLivePerson(q, orgId, id, true);
    const current = first(
      await kx(q).selectFrom('people').select('custom_fields').where('organization_id', '=', orgId).where('id', '=', id).execute(),
    ).custom_fields as Record<string, unknown>;
    const next = await checkCustomFields(q, orgId, 'person', { ...current, ...values }, { creating: false, current });
    await kx(q)
      .updateTable('people')
      .set({ custom_fields: JSON.stringify(next), updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    const changes = changesOf({ custom_fields: current }, { custom_fields: next }, ['custom_fields']);
    await audit(q, orgId, actor, 'update', 'person', id, { ...changes, keys: Object.keys(values) });
    await recordChange(q, orgId, { event: 'person.updated', entity: 'person', id, fields: { custom_fields: Object.keys(values) }, actor });
  });
  return personB(db, orgId, id);
}
