import type { Queryable } from '../../platform/db/db.ts';

export interface ChipRow {
  id: string;
  animal_id: string;
  number: string;
  implanted_on: string | null;
  registry: string | null;
  is_primary: boolean;
  created_at: string;
  updated_at: string;
}
const COLS = 'id, animal_id, number, implanted_on, registry, is_primary, created_at, updated_at';

export async function listChips(q: Queryable, orgId: string, animalId: string, limit: number, offset: number): Promise<ChipRow[]> {
  return q.query<ChipRow>(
    `SELECT ${COLS} FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2
      ORDER BY is_primary DESC, created_at, id LIMIT $3 OFFSET $4`,
    [orgId, animalId, limit, offset],
  );
}
export async function getChip(q: Queryable, orgId: string, animalId: string, id: string): Promise<ChipRow | null> {
  const rows = await q.query<ChipRow>(`SELECT ${COLS} FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 AND id = $3`, [
    orgId,
    animalId,
    id,
  ]);
  return rows[0] ?? null;
}
export async function chipByNumber(q: Queryable, orgId: string, animalId: string, number: string): Promise<ChipRow | null> {
  const rows = await q.query<ChipRow>(
    `SELECT ${COLS} FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 AND number = $3`,
    [orgId, animalId, number],
  );
  return rows[0] ?? null;
}
export async function primaryChip(q: Queryable, orgId: string, animalId: string): Promise<ChipRow | null> {
  const rows = await q.query<ChipRow>(
    `SELECT ${COLS} FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 AND is_primary`,
    [orgId, animalId],
  );
  return rows[0] ?? null;
}
/** Other live animals of the organization carrying the same number. */
export async function otherAnimalsWithChip(q: Queryable, orgId: string, animalId: string, number: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT DISTINCT a.id FROM animal_microchips c JOIN animals a ON a.organization_id = c.organization_id AND a.id = c.animal_id
      WHERE c.organization_id = $1 AND c.number = $2 AND c.animal_id <> $3 AND a.deleted_at IS NULL ORDER BY a.id LIMIT 5`,
    [orgId, number, animalId],
  );
  return rows.map((r) => r.id);
}
export async function insertChip(
  q: Queryable,
  orgId: string,
  c: { id: string; animal_id: string; number: string; implanted_on: string | null; registry: string | null; is_primary: boolean },
): Promise<void> {
  await q.query(
    `INSERT INTO animal_microchips (organization_id, id, animal_id, number, implanted_on, registry, is_primary)
     VALUES ($1,$2,$3,$4,$5,$6,$7)`,
    [orgId, c.id, c.animal_id, c.number, c.implanted_on, c.registry, c.is_primary],
  );
}
export async function updateChip(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<{ number: string; implanted_on: string | null; registry: string | null; is_primary: boolean }>,
): Promise<void> {
  const cols = (['number', 'implanted_on', 'registry', 'is_primary'] as const).filter((c) => c in patch);
  if (!cols.length) return;
  await q.query(
    `UPDATE animal_microchips SET ${cols.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now()
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...cols.map((c) => patch[c])],
  );
}
export async function clearPrimary(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await q.query(
    'UPDATE animal_microchips SET is_primary = false, updated_at = now() WHERE organization_id = $1 AND animal_id = $2 AND is_primary',
    [orgId, animalId],
  );
}
export async function deleteChip(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM animal_microchips WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
/** With no primary chip left, the oldest remaining chip becomes the primary one. */
export async function promoteOldest(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await q.query(
    `UPDATE animal_microchips SET is_primary = true, updated_at = now() WHERE organization_id = $1 AND id =
       (SELECT id FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 ORDER BY created_at, id LIMIT 1)
       AND NOT EXISTS (SELECT 1 FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 AND is_primary)`,
    [orgId, animalId],
  );
}
/** The animal's microchip_number becomes its primary chip's number (null without chips). */
export async function syncAnimalChip(q: Queryable, orgId: string, animalId: string): Promise<void> {
  await q.query(
    `UPDATE animals SET microchip_number =
       (SELECT number FROM animal_microchips WHERE organization_id = $1 AND animal_id = $2 AND is_primary), updated_at = now()
      WHERE organization_id = $1 AND id = $2`,
    [orgId, animalId],
  );
}
