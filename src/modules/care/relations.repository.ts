import type { Queryable } from '../../platform/db/db.ts';
import { defined, setClause } from '../../platform/db/sql.ts';
import type { AnimalRefT } from './schemas.ts';

// Animals are read through the animals module's directory view, live ones only.
const REF = 'd.id, d.name, d.species, d.status';
const LIVE = 'd.deleted_at IS NULL';

export async function refs(q: Queryable, orgId: string, ids: string[]): Promise<AnimalRefT[]> {
  if (!ids.length) return [];
  return q.query<AnimalRefT>(
    `SELECT ${REF} FROM animal_directory d WHERE d.organization_id = $1 AND d.id = ANY($2::text[]) AND ${LIVE} ORDER BY d.name, d.id`,
    [orgId, ids],
  );
}

/** Each bonded partner of the given animals: the pair is one row, read from either side. */
export async function bondPartners(q: Queryable, orgId: string, ids: string[]): Promise<{ animal_id: string; partner_id: string }[]> {
  return q.query<{ animal_id: string; partner_id: string }>(
    `SELECT b.animal_a_id AS animal_id, b.animal_b_id AS partner_id FROM care_bonds b WHERE b.organization_id = $1 AND
      b.animal_a_id = ANY($2::text[])
     UNION ALL
     SELECT b.animal_b_id, b.animal_a_id FROM care_bonds b WHERE b.organization_id = $1 AND b.animal_b_id = ANY($2::text[])`,
    [orgId, ids],
  );
}
export async function insertBond(q: Queryable, orgId: string, a: string, b: string, notes: string | null): Promise<boolean> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const rows = await q.query(
    `INSERT INTO care_bonds (organization_id, animal_a_id, animal_b_id, notes) VALUES ($1,$2,$3,$4)
     ON CONFLICT (organization_id, animal_a_id, animal_b_id) DO NOTHING RETURNING animal_a_id`,
    [orgId, lo, hi, notes],
  );
  return rows.length > 0;
}
export async function deleteBond(q: Queryable, orgId: string, a: string, b: string): Promise<boolean> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return (
    (
      await q.query('DELETE FROM care_bonds WHERE organization_id = $1 AND animal_a_id = $2 AND animal_b_id = $3 RETURNING animal_a_id', [
        orgId,
        lo,
        hi,
      ])
    ).length > 0
  );
}

export async function motherOf(q: Queryable, orgId: string, animalId: string): Promise<string | null> {
  return (
    (
      await q.query<{ mother_id: string }>('SELECT mother_id FROM care_mothers WHERE organization_id = $1 AND offspring_id = $2', [
        orgId,
        animalId,
      ])
    )[0]?.mother_id ?? null
  );
}
export async function offspringOf(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  return (
    await q.query<{ offspring_id: string }>('SELECT offspring_id FROM care_mothers WHERE organization_id = $1 AND mother_id = $2', [
      orgId,
      animalId,
    ])
  ).map((r) => r.offspring_id);
}
/** The animal's recorded ancestors through mothers (to refuse a cycle). */
export async function ancestors(q: Queryable, orgId: string, animalId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT mother_id, 1 FROM care_mothers WHERE organization_id = $1 AND offspring_id = $2
       UNION SELECT m.mother_id, up.depth + 1 FROM care_mothers m JOIN up ON m.organization_id = $1 AND m.offspring_id = up.id
         WHERE up.depth < 100)
     SELECT id FROM up`,
    [orgId, animalId],
  );
  return rows.map((r) => r.id);
}
export async function setMother(q: Queryable, orgId: string, offspringId: string, motherId: string, replace: boolean): Promise<void> {
  await q.query(
    `INSERT INTO care_mothers (organization_id, offspring_id, mother_id) VALUES ($1,$2,$3)
     ON CONFLICT (organization_id, offspring_id) DO
       ${replace ? 'UPDATE SET mother_id = EXCLUDED.mother_id, created_at = now()' : 'NOTHING'}`,
    [orgId, offspringId, motherId],
  );
}
export async function clearMother(q: Queryable, orgId: string, offspringId: string): Promise<boolean> {
  return (
    (await q.query('DELETE FROM care_mothers WHERE organization_id = $1 AND offspring_id = $2 RETURNING mother_id', [orgId, offspringId]))
      .length > 0
  );
}

export interface LitterRow {
  id: string;
  name: string;
  species: string;
  origin: string;
  born_on: string | null;
  mother_id: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}
const LITTER_COLS = 'id, name, species, origin, born_on, mother_id, notes, created_at, updated_at';
export async function getLitter(q: Queryable, orgId: string, id: string, lock = false): Promise<LitterRow | null> {
  return (
    (
      await q.query<LitterRow>(
        `SELECT ${LITTER_COLS} FROM care_litters WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function listLitters(q: Queryable, orgId: string, limit: number, offset: number): Promise<LitterRow[]> {
  return q.query<LitterRow>(
    `SELECT ${LITTER_COLS} FROM care_litters WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [orgId, limit, offset],
  );
}
export async function insertLitter(q: Queryable, orgId: string, l: Omit<LitterRow, 'created_at' | 'updated_at'>): Promise<void> {
  await q.query(
    'INSERT INTO care_litters (organization_id, id, name, species, origin, born_on, mother_id, notes) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)',
    [orgId, l.id, l.name, l.species, l.origin, l.born_on, l.mother_id, l.notes],
  );
}
export const LITTER_FIELDS = ['name', 'origin', 'born_on', 'mother_id', 'notes'] as const;
export async function updateLitter(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Record<(typeof LITTER_FIELDS)[number], unknown>>,
) {
  const set = setClause(defined(patch), LITTER_FIELDS, 3);
  await q.query(
    `UPDATE care_litters SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')} WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...set.params],
  );
}
export async function deleteLitter(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM care_litters WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
export async function litterMembers(q: Queryable, orgId: string, litterIds: string[]): Promise<{ litter_id: string; animal_id: string }[]> {
  return q.query<{ litter_id: string; animal_id: string }>(
    'SELECT litter_id, animal_id FROM care_litter_members WHERE organization_id = $1 AND litter_id = ANY($2::text[]) ORDER BY ' +
      'added_at, animal_id',
    [orgId, litterIds],
  );
}
export async function litterOf(q: Queryable, orgId: string, animalId: string): Promise<{ id: string; name: string } | null> {
  return (
    (
      await q.query<{ id: string; name: string }>(
        `SELECT l.id, l.name FROM care_litter_members m JOIN care_litters l ON l.organization_id = m.organization_id AND l.id = m.litter_id
          WHERE m.organization_id = $1 AND m.animal_id = $2`,
        [orgId, animalId],
      )
    )[0] ?? null
  );
}
export async function addMember(q: Queryable, orgId: string, litterId: string, animalId: string): Promise<void> {
  await q.query('INSERT INTO care_litter_members (organization_id, litter_id, animal_id) VALUES ($1,$2,$3)', [orgId, litterId, animalId]);
}
export async function removeMember(q: Queryable, orgId: string, litterId: string, animalId: string): Promise<boolean> {
  return (
    (
      await q.query(
        'DELETE FROM care_litter_members WHERE organization_id = $1 AND litter_id = $2 AND animal_id = $3 RETURNING animal_id',
        [orgId, litterId, animalId],
      )
    ).length > 0
  );
}
