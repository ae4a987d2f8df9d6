/**
 * Warning flags on a person (banned, do_not_adopt, deceased, dangerous), each with a reason, who set it
 * and when. Clearing is soft (cleared_at/by): the history stays. At most one standing flag of a kind.
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import type { FlagName, FlagT } from './depth.schemas.ts';

const COLS = 'id, person_id, flag, reason, created_by, created_at, cleared_at, cleared_by';

export async function listFlags(q: Queryable, orgId: string, personId: string, includeCleared: boolean, limit: number, offset: number) {
  await requireLivePerson(q, orgId, personId);
  return q.query<FlagT>(
    `SELECT ${COLS} FROM person_flags WHERE organization_id = $1 AND person_id = $2 AND ($3 OR cleared_at IS NULL)
      ORDER BY cleared_at DESC NULLS FIRST, created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [orgId, personId, includeCleared, limit + 1, offset],
  );
}
async function getFlag(q: Queryable, orgId: string, personId: string, id: string): Promise<FlagT> {
  const r = (
    await q.query<FlagT>(`SELECT ${COLS} FROM person_flags WHERE organization_id = $1 AND person_id = $2 AND id = $3`, [
      orgId,
      personId,
      id,
    ])
  )[0];
  if (!r) throw notFound('flag');
  return r;
}
export async function addFlag(db: Db, orgId: string, personId: string, b: { flag: FlagName; reason: string }, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const id = newId('pfl');
    const rows = await q.query(
      `INSERT INTO person_flags (organization_id, id, person_id, flag, reason, created_by) VALUES ($1,$2,$3,$4,$5,$6)
       ON CONFLICT (organization_id, person_id, flag) WHERE cleared_at IS NULL DO NOTHING RETURNING id`,
      [orgId, id, personId, b.flag, b.reason.trim(), actor],
    );
    if (!rows.length) throw invalid({ flag: [`is already standing on this person (clear it first to set it again)`] });
    await audit(q, orgId, actor, 'create', 'person_flag', id, { person_id: personId, flag: b.flag });
    return getFlag(q, orgId, personId, id);
  });
}
export async function clearFlag(db: Db, orgId: string, personId: string, id: string, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const cur = await getFlag(q, orgId, personId, id);
    if (cur.cleared_at) throw invalid({ flag: ['was already cleared'] });
    await q.query('UPDATE person_flags SET cleared_at = now(), cleared_by = $4 WHERE organization_id = $1 AND person_id = $2 AND id = $3', [
      orgId,
      personId,
      id,
      actor,
    ]);
    await audit(q, orgId, actor, 'clear', 'person_flag', id, { person_id: personId, flag: cur.flag });
    return getFlag(q, orgId, personId, id);
  });
}
/** The standing flags of a person. */
export async function standingFlags(q: Queryable, orgId: string, personId: string): Promise<{ flag: FlagName; reason: string }[]> {
  return q.query(
    'SELECT flag, reason FROM person_flags WHERE organization_id = $1 AND person_id = $2 AND cleared_at IS NULL ORDER BY created_at, id',
    [orgId, personId],
  );
}
