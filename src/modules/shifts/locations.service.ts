import type { Db } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import * as repo from './repository.ts';

/** Shift locations: the places schedules are held, matched by name (case-insensitively). */

export function addLocation(db: Db, orgId: string, actor: string, rawName: string) {
  return db.tx(async (q) => {
    const name = rawName.trim();
    if (!name) throw invalid({ name: ['must not be blank'] });
    if ((await repo.locationsByNames(q, orgId, [name])).size) throw invalid({ name: [`a location named ${name} already exists`] });
    const r = await repo.insertLocation(q, orgId, name);
    await audit(q, orgId, actor, 'create', 'shift_location', r.id, { name });
    return r;
  });
}

export function renameLocation(db: Db, orgId: string, actor: string, id: string, rawName: string) {
  return db.tx(async (q) => {
    const cur = await repo.locationById(q, orgId, id);
    if (!cur) throw notFound('location');
    const name = rawName.trim();
    if (!name) throw invalid({ name: ['must not be blank'] });
    const same = (await repo.locationsByNames(q, orgId, [name])).get(name.toLowerCase());
    if (same && same.id !== cur.id) throw invalid({ name: [`a location named ${name} already exists`] });
    const r = await repo.renameLocation(q, orgId, cur.id, name);
    await auditChanges(q, orgId, actor, 'shift_location', cur.id, cur, r);
    return r ?? cur;
  });
}

/** Refused (422) while any schedule, cancelled or not, is at the location. */
export async function removeLocation(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.locationById(q, orgId, id))) throw notFound('location');
    const n = await repo.schedulesAtLocation(q, orgId, id);
    if (n) throw invalid({ id: [`${n} schedule${n === 1 ? ' is' : 's are'} at this location`] });
    await repo.deleteLocation(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'shift_location', id);
  });
}
