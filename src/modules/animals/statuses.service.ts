import type { Db } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import * as repo from './statuses.repository.ts';
import type { CareState, StatusRow } from './statuses.repository.ts';

/** A status's fields as sent (POST: name and care state required; PATCH: any of them). */
export interface StatusFields {
  name?: string;
  care_state?: CareState;
  sort_order?: number;
}

const duplicate = (name: string) => invalid({ name: [`a status named ${name} already exists`] });

export { listStatuses } from './statuses.repository.ts';

/**
 * Adds a status (names are unique within the organization, case-sensitive); without a sort order it goes last (10 after
 * the highest). One transaction with its audit row, which records the fields sent.
 */
export async function createStatus(
  db: Db,
  orgId: string,
  actor: string,
  body: StatusFields & { name: string; care_state: CareState },
): Promise<StatusRow> {
  return db.tx(async (q) => {
    if ((await repo.statusesByNames(q, orgId, [body.name])).length) throw duplicate(body.name);
    const existing = await repo.listStatuses(q, orgId);
    const sort = body.sort_order ?? existing.reduce((m, s) => Math.max(m, s.sort_order), 0) + 10;
    const created = await repo.insertStatus(q, orgId, { name: body.name, care_state: body.care_state, sort_order: sort });
    await audit(q, orgId, actor, 'create', 'animal_status', created.id, body);
    return created;
  });
}

/** Renames a status, changes its care state or order (404 when the organization has no such status). */
export async function updateStatus(db: Db, orgId: string, actor: string, id: string, body: StatusFields): Promise<StatusRow> {
  return db.tx(async (q) => {
    const current = await repo.statusById(q, orgId, id);
    if (!current) throw notFound('status');
    if (body.name && body.name !== current.name && (await repo.statusesByNames(q, orgId, [body.name])).length) throw duplicate(body.name);
    const row = await repo.updateStatus(q, orgId, id, body);
    if (!row) throw notFound('status');
    await audit(q, orgId, actor, 'update', 'animal_status', id, body);
    return row;
  });
}

/** Removes a status no animal, current or deleted, has (422 otherwise). */
export async function deleteStatus(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.statusById(q, orgId, id))) throw notFound('status');
    const n = await repo.animalsWithStatus(q, orgId, id);
    if (n > 0) throw invalid({ id: [`${n} animal${n === 1 ? ' has' : 's have'} this status; move them to another status first`] });
    await repo.deleteStatus(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'animal_status', id);
  });
}
