/** The Family B read of a person (with standing flags and custom fields) and the person's custom field values. */
import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { audit, changesOf } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { checkCustomFields } from '../customfields/public.ts';
import { requireLivePerson } from './live.ts';
import type { FlagName } from './depth.schemas.ts';

export async function personB(q: Queryable, orgId: string, id: string) {
  await requireLivePerson(q, orgId, id);
  const r = first(
    await q.query<{
      id: string;
      first_name: string;
      last_name: string;
      email: string;
      phone: string | null;
      roles: string[];
      tags: string[];
      custom_fields: Record<string, unknown>;
      created_at: Date;
      updated_at: Date;
      flags: FlagName[];
    }>(
      `SELECT p.id, p.first_name, p.last_name, p.email, p.phone, p.roles, p.tags, p.custom_fields, p.created_at, p.updated_at,
              ARRAY(SELECT f.flag FROM person_flags f WHERE f.organization_id = p.organization_id AND f.person_id = p.id
                     AND f.cleared_at IS NULL ORDER BY f.created_at, f.id) AS flags
         FROM people p WHERE p.organization_id = $1 AND p.id = $2`,
      [orgId, id],
    ),
  );
  return { ...r, display_name: `${r.first_name} ${r.last_name}`.trim() };
}

export async function setCustomFields(db: Db, orgId: string, id: string, values: Record<string, unknown>, actor: string) {
  await db.tx(async (q) => {
    await requireLivePerson(q, orgId, id, true);
    const current = first(
      await q.query<{ custom_fields: Record<string, unknown> }>('SELECT custom_fields FROM people WHERE organization_id = $1 AND id = $2', [
        orgId,
        id,
      ]),
    ).custom_fields;
    const next = await checkCustomFields(q, orgId, 'person', { ...current, ...values }, { creating: false, current });
    await q.query('UPDATE people SET custom_fields = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [
      orgId,
      id,
      JSON.stringify(next),
    ]);
    const changes = changesOf({ custom_fields: current }, { custom_fields: next }, ['custom_fields']);
    await audit(q, orgId, actor, 'update', 'person', id, { ...changes, keys: Object.keys(values) });
    await recordChange(q, orgId, { event: 'person.updated', entity: 'person', id, fields: { custom_fields: Object.keys(values) }, actor });
  });
  return personB(db, orgId, id);
}
