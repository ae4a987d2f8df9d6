import type { Db, Queryable } from '../../platform/db/db.ts';
import { present } from '../../platform/db/db.ts';
import { invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import type { Static } from '../../platform/schema.ts';
import type * as S from './schemas.ts';
import * as repo from './repository.ts';

/** The medical catalogue and protocols: the writes, each one transaction. */

const lowerAll = (xs: string[]) => [...new Set(xs.map((s) => s.trim().toLowerCase()))];
const itemDup = (name: string) => invalid({ name: [`a catalogue item named ${name} already exists`] });

export async function createItem(db: Db, orgId: string, actor: string, b: Static<typeof S.ItemCreate>) {
  if ((b.alters ?? false) && b.kind !== 'procedure') throw invalid({ alters: ['is accepted on procedures only'] });
  return db.tx(async (q) => {
    if (await repo.itemNameTaken(q, orgId, b.name)) throw itemDup(b.name);
    const created = await repo.insertItem(q, orgId, {
      kind: b.kind,
      name: b.name.trim(),
      species: lowerAll(b.species ?? []),
      default_product: b.default_product ?? null,
      default_manufacturer: b.default_manufacturer ?? null,
      alters: b.alters ?? false,
    });
    await audit(q, orgId, actor, 'create', 'medical_item', created.id, b);
    return created;
  });
}

/** Only sent fields change; the kind is fixed. */
export function updateItem(db: Db, orgId: string, actor: string, id: string, b: Static<typeof S.ItemPatch>) {
  return db.tx(async (q) => {
    const cur = await repo.itemById(q, orgId, id);
    if (!cur) throw notFound('catalogue item');
    const next = {
      ...cur,
      ...b,
      name: b.name?.trim() ?? cur.name,
      species: b.species ? lowerAll(b.species) : cur.species,
    };
    const f: FieldErrors = {};
    if (next.alters && cur.kind !== 'procedure') f.alters = ['is accepted on procedures only'];
    if (b.name && (await repo.itemNameTaken(q, orgId, b.name, cur.id))) f.name = [`a catalogue item named ${b.name} already exists`];
    if (Object.keys(f).length) throw invalid(f);
    const row = await repo.updateItem(q, orgId, cur.id, next);
    await auditChanges(q, orgId, actor, 'medical_item', cur.id, cur, row);
    return row;
  });
}

/** Refused (422) while a protocol, a record or a due item names it. */
export async function deleteItem(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.itemById(q, orgId, id))) throw notFound('catalogue item');
    const n = await repo.itemUses(q, orgId, id);
    if (n > 0)
      throw invalid({
        id: [`is used by ${n} protocol${n === 1 ? '' : 's'}, record${n === 1 ? '' : 's'} or due item${n === 1 ? '' : 's'}`],
      });
    await repo.deleteItem(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'medical_item', id);
  });
}

async function checkProtocol(q: Queryable, orgId: string, p: repo.ProtocolFields, exceptId?: string) {
  const f: FieldErrors = {};
  const item = await repo.itemById(q, orgId, p.item_id);
  if (!item) f.item_id = ['names no catalogue item of this organization'];
  else if (item.species.length && !item.species.includes(p.species)) f.item_id = [`names an item that does not apply to ${p.species}`];
  if (p.doses === null && p.stop_age_weeks === null) f.doses = ['is required without stop_age_weeks'];
  if (p.interval_days === null && p.doses !== 1) f.interval_days = ['is required unless doses is 1'];
  if (p.stop_age_weeks !== null && p.stop_age_weeks <= p.start_age_weeks) f.stop_age_weeks = ['must be after start_age_weeks'];
  if (await repo.protocolNameTaken(q, orgId, p.name, exceptId)) f.name = [`a protocol named ${p.name} already exists`];
  if (Object.keys(f).length) throw invalid(f);
}

/** A protocol write changes the species with protocols: the route calls `ctx.changed()` once it has committed. */
export function createProtocol(db: Db, orgId: string, actor: string, b: Static<typeof S.ProtocolCreate>) {
  const p: repo.ProtocolFields = {
    name: b.name.trim(),
    species: b.species.trim().toLowerCase(),
    item_id: b.item_id,
    start_age_weeks: b.start_age_weeks ?? 0,
    interval_days: b.interval_days ?? null,
    doses: b.doses ?? null,
    stop_age_weeks: b.stop_age_weeks ?? null,
    active: b.active ?? true,
  };
  return db.tx(async (q) => {
    await checkProtocol(q, orgId, p);
    const id = await repo.insertProtocol(q, orgId, p);
    await audit(q, orgId, actor, 'create', 'medical_protocol', id, p);
    return present(await repo.protocolById(q, orgId, id), 'protocol');
  });
}

export function updateProtocol(db: Db, orgId: string, actor: string, id: string, b: Static<typeof S.ProtocolPatch>) {
  return db.tx(async (q) => {
    const cur = await repo.protocolById(q, orgId, id);
    if (!cur) throw notFound('protocol');
    const p: repo.ProtocolFields = {
      name: b.name?.trim() ?? cur.name,
      species: b.species?.trim().toLowerCase() ?? cur.species,
      item_id: b.item_id ?? cur.item_id,
      start_age_weeks: b.start_age_weeks ?? cur.start_age_weeks,
      interval_days: b.interval_days !== undefined ? b.interval_days : cur.interval_days,
      doses: b.doses !== undefined ? b.doses : cur.doses,
      stop_age_weeks: b.stop_age_weeks !== undefined ? b.stop_age_weeks : cur.stop_age_weeks,
      active: b.active ?? cur.active,
    };
    await checkProtocol(q, orgId, p, cur.id);
    await repo.updateProtocol(q, orgId, cur.id, p);
    const after = present(await repo.protocolById(q, orgId, cur.id), 'protocol');
    await auditChanges(q, orgId, actor, 'medical_protocol', cur.id, cur, after);
    return after;
  });
}

/** Refused (422) once it has made a due item. */
export async function deleteProtocol(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.protocolById(q, orgId, id))) throw notFound('protocol');
    const n = await repo.protocolUses(q, orgId, id);
    if (n > 0) throw invalid({ id: [`has made ${n} due item${n === 1 ? '' : 's'}; set active to false instead`] });
    await repo.deleteProtocol(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'medical_protocol', id);
  });
}
