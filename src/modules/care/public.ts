/**
 * What other modules may use of the care module (it owns notes, nutrition plans, bonds, mothers, litters,
 * tags, breeds, age groups and behaviour attributes).
 */
export { bondedWarnings, type BondWarning } from './relations.service.ts';

import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';

/**
 * SQL giving the animal's value ('yes', 'no', 'unknown', '1'…'5') of the behaviour attribute with the key
 * `keyLiteral` (a SQL string literal, e.g. `'good_with_dogs'`), or NULL when none is recorded.
 */
export const behaviourValueSql = (orgSql: string, idSql: string, keyLiteral: string) =>
  `(SELECT bv.value FROM care_behaviour_values bv JOIN care_behaviour_attributes ba
      ON ba.organization_id = bv.organization_id AND ba.id = bv.attribute_id
    WHERE bv.organization_id = ${orgSql} AND bv.animal_id = ${idSql} AND ba.key = ${keyLiteral})`;

/** SQL giving the newest change time among an animal's shareable notes and behaviour values (NULL: none). */
export const careChangedAtSql = (orgSql: string, idSql: string) =>
  `GREATEST((SELECT max(cn.updated_at) FROM care_notes cn WHERE cn.organization_id = ${orgSql} AND cn.animal_id = ${idSql}
      AND cn.visibility = 'shareable'),
    (SELECT max(bv.updated_at) FROM care_behaviour_values bv WHERE bv.organization_id = ${orgSql} AND bv.animal_id = ${idSql}))`;

/**
 * The notes staff marked shareable of kinds `general` and `adoption` (the public description of an animal),
 * pinned first, then oldest first. Internal notes and other kinds are never returned.
 */
export async function shareableNotes(q: Queryable, orgId: string, animalId: string): Promise<{ body: string; updated_at: Date }[]> {
  return kx(q)
    .selectFrom('care_notes')
    .select(['body', 'updated_at'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('visibility', '=', 'shareable')
    .where('kind', 'in', ['general', 'adoption'])
    .orderBy('pinned', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(20)
    .execute();
}

/** Ids of the animals bonded with `animalId` (either side of the pair). */
export async function bondedWith(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('care_bonds')
    .select(sql<string>`CASE WHEN animal_a_id = ${animalId} THEN animal_b_id ELSE animal_a_id END`.as('id'))
    .where('organization_id', '=', orgId)
    .where((eb) => eb.or([eb('animal_a_id', '=', animalId), eb('animal_b_id', '=', animalId)]))
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => r.id);
}

/** SQL giving `shareableNotes` as a JSON array of {body, updated_at}, for one statement. */
export const shareableNotesJsonSql = (orgSql: string, idSql: string) =>
  `(SELECT coalesce(json_agg(json_build_object('body', n.body, 'updated_at', n.updated_at)
            ORDER BY n.pinned DESC, n.created_at, n.id), '[]'::json)
      FROM (SELECT * FROM care_notes cj WHERE cj.organization_id = ${orgSql} AND cj.animal_id = ${idSql} AND cj.visibility = 'shareable'
              AND cj.kind IN ('general', 'adoption') ORDER BY cj.pinned DESC, cj.created_at, cj.id LIMIT 20) n)`;

/** SQL giving the ids of the animals bonded with `idSql` (a set, for `= ANY(ARRAY(...))` or `IN (...)`). */
export const bondedIdsSql = (orgSql: string, idSql: string) =>
  `SELECT CASE WHEN cb.animal_a_id = ${idSql} THEN cb.animal_b_id ELSE cb.animal_a_id END FROM care_bonds cb
    WHERE cb.organization_id = ${orgSql} AND (cb.animal_a_id = ${idSql} OR cb.animal_b_id = ${idSql})`;

/**
 * Moving: notes brought over from another system, written or rewritten by id with their original date (one audit
 * row each).
 */
export async function importCareNotes(
  q: Queryable,
  orgId: string,
  rows: {
    id: string;
    animal_id: string;
    kind: 'general' | 'medical' | 'behaviour' | 'adoption' | 'foster';
    body: string;
    created_at: string | null;
  }[],
  actor: string,
): Promise<void> {
  if (!rows.length) return;
  await sql`WITH w AS (
       INSERT INTO care_notes (organization_id, id, animal_id, kind, body, author, created_at)
       SELECT ${orgId}, u.id, u.a, u.k, u.b, ${actor}, coalesce(u.c, clock_timestamp())
         FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.animal_id)}::text[], ${rows.map((r) => r.kind)}::text[],
                     ${rows.map((r) => r.body)}::text[], ${rows.map((r) => r.created_at)}::timestamptz[]) AS u(id, a, k, b, c)
       ON CONFLICT (organization_id, id) DO UPDATE SET kind = EXCLUDED.kind, body = EXCLUDED.body, updated_at = now()
       RETURNING id, animal_id, (xmax = 0) AS inserted)
     INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
     SELECT ${orgId}, ${actor}, CASE WHEN inserted THEN 'import' ELSE 'import_update' END, 'care_note', id,
            jsonb_build_object('animal_id', animal_id)
       FROM w`.execute(kx(q));
}

/**
 * What a foster caring for the animal is told: the notes staff marked shareable (any kind) and the nutrition plans in
 * force today. Internal notes are never returned.
 */
export async function fosterCareInstructions(q: Queryable, orgId: string, animalId: string) {
  const notes = await kx(q)
    .selectFrom('care_notes')
    .select(['kind', 'body'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('visibility', '=', 'shareable')
    .orderBy('pinned', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(30)
    .execute();
  const plans = await kx(q)
    .selectFrom('care_nutrition_plans')
    .select(['food', sql<string>`amount::text`.as('amount'), 'unit', 'times_per_day', 'instructions'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('starts_on', '<=', sql<string>`current_date`)
    .where((eb) => eb.or([eb('ends_on', 'is', null), eb('ends_on', '>=', sql<string>`current_date`)]))
    .orderBy('starts_on')
    .orderBy('id')
    .limit(10)
    .execute();
  return { notes, plans };
}

/** Records a note of kind `foster` (internal until staff share it) written by `author`, with its audit row; returns its id. */
export async function addFosterNote(q: Queryable, orgId: string, animalId: string, body: string, author: string): Promise<string> {
  const id = newId('note');
  await kx(q)
    .insertInto('care_notes')
    .values({ organization_id: orgId, id, animal_id: animalId, kind: 'foster', body, visibility: 'internal', author })
    .execute();
  await audit(q, orgId, author, 'create', 'care_note', id, { animal_id: animalId, kind: 'foster' });
  return id;
}
