/**
 * Warning flags on a person (banned, do_not_adopt, deceased, dangerous), each with a reason, who set it
 * and when. Clearing is soft (cleared_at/by): the history stays. At most one standing flag of a kind.
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { requireLivePerson } from './live.ts';
import type { FlagName, FlagT } from './depth.schemas.ts';

const COLS = ['id', 'person_id', 'flag', 'reason', 'created_by', 'created_at', 'cleared_at', 'cleared_by'] as const;
const flags = (q: Queryable, orgId: string, personId: string) =>
  kx(q)
    .selectFrom('person_flags')
    .select(COLS)
    .$narrowType<{ flag: FlagName }>()
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId);

export async function listFlags(q: Queryable, orgId: string, personId: string, includeCleared: boolean, limit: number, offset: number) {
  await requireLivePerson(q, orgId, personId);
  let list = flags(q, orgId, personId);
  if (!includeCleared) list = list.where('cleared_at', 'is', null);
  return list
    .orderBy(sql`cleared_at DESC NULLS FIRST`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
async function getFlag(q: Queryable, orgId: string, personId: string, id: string): Promise<FlagT> {
  const r = await flags(q, orgId, personId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('flag');
  return r;
}
export async function addFlag(db: Db, orgId: string, personId: string, b: { flag: FlagName; reason: string }, actor: string) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const id = newId('pfl');
    const rows = await kx(q)
      .insertInto('person_flags')
      .values({ organization_id: orgId, id, person_id: personId, flag: b.flag, reason: b.reason.trim(), created_by: actor })
      .onConflict((oc) => oc.columns(['organization_id', 'person_id', 'flag']).where('cleared_at', 'is', null).doNothing())
      .returning('id')
      .execute();
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
    await kx(q)
      .updateTable('person_flags')
      .set({ cleared_at: sql`now()`, cleared_by: actor })
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .where('id', '=', id)
      .execute();
    await audit(q, orgId, actor, 'clear', 'person_flag', id, { person_id: personId, flag: cur.flag });
    return getFlag(q, orgId, personId, id);
  });
}
/** The standing flags of a person. */
export async function standingFlags(q: Queryable, orgId: string, personId: string): Promise<{ flag: FlagName; reason: string }[]> {
  return kx(q)
    .selectFrom('person_flags')
    .select(['flag', 'reason'])
    .$narrowType<{ flag: FlagName }>()
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('cleared_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
