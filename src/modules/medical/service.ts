import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { conflict, invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { animalAltered, animalExists, getAnimal, setAltered } from '../animals/public.ts';
import type { AnimalRow } from '../animals/public.ts';
import * as repo from './repository.ts';
import { OrgCache } from '../../platform/org-cache.ts';
import { one } from './repository.ts';
import type { AlteredPut, CompleteT, DueCreate, DueT, ItemT, ProtocolT, RecordCreateT, RecordPatchT } from './schemas.ts';
import type { Static } from '../../platform/schema.ts';
import { addDays, dateIn, daysBetween, laterOf, todayIn } from './dates.ts';

/** What the medical rules need of the organization. */
export interface OrgZone {
  id: string;
  time_zone: string;
}

export function dueWire(r: repo.DueItemRow, today: string): DueT {
  const state = r.completed_at ? 'done' : r.due_on < today ? 'overdue' : r.due_on === today ? 'due' : 'upcoming';
  return {
    id: r.id,
    animal_id: r.animal_id,
    item_id: r.item_id,
    item_name: r.item_name,
    kind: r.kind,
    protocol_id: r.protocol_id,
    dose_number: r.dose_number,
    due_on: r.due_on,
    state,
    days_overdue: state === 'overdue' ? daysBetween(r.due_on, today) : 0,
    completed_at: r.completed_at,
    record_id: r.record_id,
  };
}

/** The date an age is reached, from a birth date. */
const ageReached = (dob: string, weeks: number) => addDays(dob, weeks * 7);

/**
 * The first dose of a protocol for an animal entering care on `entered`: on entry, or when it reaches the
 * start age if that is later. Null when the animal is already past the stop age (known birth date only).
 */
export function firstDoseOn(p: ProtocolT, dob: string | null, entered: string): string | null {
  const on = dob ? laterOf(entered, ageReached(dob, p.start_age_weeks)) : entered;
  if (p.stop_age_weeks !== null && dob && on >= ageReached(dob, p.stop_age_weeks)) return null;
  return on;
}

/**
 * The next dose after dose `dose` given at `givenAt`: the day it was given in the organization's zone plus
 * the interval. Null when the protocol has no more doses (count reached, single dose, or the stop age).
 */
export function nextDoseOn(p: ProtocolT, dose: number, givenAt: string, zone: string, dob: string | null): string | null {
  if (p.interval_days === null) return null;
  if (p.doses !== null && dose >= p.doses) return null;
  const on = addDays(dateIn(givenAt, zone), p.interval_days);
  if (p.stop_age_weeks !== null && dob && on >= ageReached(dob, p.stop_age_weeks)) return null;
  return on;
}

async function liveAnimal(q: Queryable, orgId: string, animalId: string): Promise<AnimalRow> {
  const a = await getAnimal(q, orgId, animalId);
  if (!a) throw notFound('animal');
  return a;
}

/**
 * Creates the first due item of every active protocol for the animal's species: the one entry point run
 * when an animal enters care (and by POST .../medical/apply-protocols). `entered` defaults to the animal's
 * intake date. A protocol already applied to the animal adds nothing. Returns the items created.
 */
export async function applyProtocols(q: Queryable, org: OrgZone, animalId: string, actor: string | null, entered?: string) {
  const created = await scheduleFirstDoses(q, org.id, await liveAnimal(q, org.id, animalId), actor, entered);
  const today = todayIn(org.time_zone);
  return (await repo.dueByIds(q, org.id, created)).map((r) => dueWire(r, today));
}

/** applyProtocols' writes, for an animal whose facts the caller has: the ids of the due items created. */
export async function scheduleFirstDoses(
  q: Queryable,
  orgId: string,
  a: { id: string; species: string; date_of_birth: string | null; intake_date: string },
  actor: string | null,
  entered?: string,
): Promise<string[]> {
  const created: string[] = [];
  for (const p of await repo.activeProtocolsFor(q, orgId, a.species)) {
    const on = firstDoseOn(p, a.date_of_birth, entered ?? a.intake_date);
    if (!on) continue;
    const id = await repo.insertDue(q, orgId, {
      animal_id: a.id,
      item_id: p.item_id,
      kind: p.kind,
      protocol_id: p.id,
      dose_number: 1,
      due_on: on,
      from_record_id: null,
    });
    if (id) created.push(id);
  }
  if (created.length) await audit(q, orgId, actor, 'apply_protocols', 'animal', a.id, { due_items: created });
  return created;
}

const protocolSpecies = new OrgCache<ReadonlySet<string>>();
/**
 * The species (lower case) the organization has an active protocol for, cached: a new animal of another species needs
 * no protocol read. The protocol routes clear it everywhere on change (`ctx.changed()`).
 */
export async function speciesWithProtocols(q: Queryable, orgId: string): Promise<ReadonlySet<string>> {
  return protocolSpecies.get(orgId, async () => new Set(await repo.activeProtocolSpecies(q, orgId)));
}

type Fields = repo.RecordFields;

/** Checks a record against its item and the animal; returns field errors (empty when valid). */
function recordProblems(r: Fields, item: ItemT | null, species: string, zone: string): FieldErrors {
  const f: FieldErrors = {};
  if (item) {
    if (r.kind !== item.kind) f.kind = [`must be ${item.kind}, the kind of the catalogue item`];
    if (item.species.length && !item.species.includes(species.toLowerCase()))
      f.item_id = [`names an item that does not apply to ${species} (it applies to ${item.species.join(', ')})`];
  }
  if (r.result !== null && r.kind !== 'test') f.result = ['is recorded for tests only'];
  if (r.rabies_tag !== null && r.kind !== 'vaccine') f.rabies_tag = ['is recorded for vaccines only'];
  if (r.next_due_on !== null && !r.item_id) f.next_due_on = ['needs item_id, which names the due item it makes'];
  if (r.next_due_on !== null && r.next_due_on < dateIn(r.given_at, zone)) f.next_due_on = ['cannot be before the day given_at falls on'];
  return f;
}

function normalize(r: Fields): Fields {
  return { ...r, given_at: new Date(r.given_at).toISOString(), result: r.kind === 'test' ? (r.result ?? 'unknown') : r.result };
}

/** Makes the record's next due item match its next_due_on: created, moved, or removed while open. */
async function syncNextDue(q: Queryable, orgId: string, recordId: string, animalId: string, r: Fields, kind: ItemT['kind']) {
  const made = await repo.dueFromRecord(q, orgId, recordId);
  const open = made.filter((d) => !d.completed_at);
  if (r.next_due_on === null) {
    for (const d of open) await repo.deleteDue(q, orgId, d.id);
  } else if (open[0]) {
    if (open[0].due_on !== r.next_due_on) await repo.moveDue(q, orgId, open[0].id, r.next_due_on);
  } else if (!made.length && r.item_id) {
    await repo.insertDue(q, orgId, {
      animal_id: animalId,
      item_id: r.item_id,
      kind,
      protocol_id: null,
      dose_number: null,
      due_on: r.next_due_on,
      from_record_id: recordId,
    });
  }
}

/** A record of an altering item (spay/neuter) marks the animal altered on the record's day, if not earlier. */
async function markAltered(q: Queryable, org: OrgZone, animalId: string, r: Fields, item: ItemT | null) {
  if (!item?.alters) return;
  const on = dateIn(r.given_at, org.time_zone);
  const cur = await animalAltered(q, org.id, animalId);
  if (cur && (!cur.altered || !cur.altered_on || cur.altered_on > on))
    await setAltered(q, org.id, animalId, { altered: true, altered_on: on });
}

export async function createRecord(q: Queryable, org: OrgZone, animalId: string, b: RecordCreateT, actor: string) {
  const a = await liveAnimal(q, org.id, animalId);
  const item = b.item_id ? await repo.itemById(q, org.id, b.item_id) : null;
  if (b.item_id && !item) throw invalid({ item_id: ['names no catalogue item of this organization'] });
  const kind = b.kind ?? item?.kind;
  const name = b.name ?? item?.name;
  const missing: FieldErrors = {};
  if (!kind) missing.kind = ['is required without item_id'];
  if (!name) missing.name = ['is required without item_id'];
  if (!kind || !name) throw invalid(missing);
  const r = normalize({
    kind,
    item_id: item?.id ?? null,
    name,
    product: b.product !== undefined ? b.product : (item?.default_product ?? null),
    manufacturer: b.manufacturer !== undefined ? b.manufacturer : (item?.default_manufacturer ?? null),
    lot: b.lot ?? null,
    expires_on: b.expires_on ?? null,
    dose: b.dose ?? null,
    route: b.route ?? null,
    given_by: b.given_by ?? null,
    given_at: b.given_at,
    next_due_on: b.next_due_on ?? null,
    result: b.result ?? null,
    rabies_tag: b.rabies_tag ?? null,
    notes: b.notes ?? null,
  });
  const problems = recordProblems(r, item, a.species, org.time_zone);
  if (Object.keys(problems).length) throw invalid(problems);
  const id = await repo.insertRecord(q, org.id, a.id, r);
  await syncNextDue(q, org.id, id, a.id, r, kind);
  await markAltered(q, org, a.id, r, item);
  await audit(q, org.id, actor, 'create', 'medical_record', id, { animal_id: a.id, ...r });
  return one(await repo.recordsByIds(q, org.id, [id]));
}

export async function updateRecord(q: Queryable, org: OrgZone, animalId: string, id: string, b: RecordPatchT, actor: string) {
  const a = await liveAnimal(q, org.id, animalId);
  const cur = await repo.recordById(q, org.id, a.id, id);
  if (!cur) throw notFound('medical record');
  const item = cur.item_id ? await repo.itemById(q, org.id, cur.item_id) : null;
  const { id: _id, animal_id: _a, due_item_id: _d, created_at: _c, updated_at: _u, ...fields } = cur;
  const r = normalize({ ...fields, ...b });
  const problems = recordProblems(r, null, a.species, org.time_zone);
  if (Object.keys(problems).length) throw invalid(problems);
  await repo.updateRecord(q, org.id, id, r);
  await syncNextDue(q, org.id, id, a.id, r, r.kind);
  await markAltered(q, org, a.id, r, item);
  await auditChanges(q, org.id, actor, 'medical_record', id, cur, await repo.recordById(q, org.id, a.id, id));
  return one(await repo.recordsByIds(q, org.id, [id]));
}

/**
 * Removes a record and what it did to due items: the item it completed is open again, and the open item
 * its completion or next due made is gone. The animal's spayed/neutered state is left as it is.
 */
export async function deleteRecord(q: Queryable, orgId: string, animalId: string, id: string, actor: string) {
  const a = await liveAnimal(q, orgId, animalId);
  if (!(await repo.recordById(q, orgId, a.id, id))) throw notFound('medical record');
  await repo.detachRecord(q, orgId, id);
  await repo.deleteRecord(q, orgId, id);
  await audit(q, orgId, actor, 'delete', 'medical_record', id, { animal_id: a.id });
}

/**
 * Completes a due item: writes its record and, for a protocol dose with more to follow, the next dose's due
 * item (the day given in the organization's zone plus the interval), all in the caller's transaction.
 */
export async function completeDue(q: Queryable, org: OrgZone, animalId: string, dueId: string, b: CompleteT, actor: string) {
  const a = await liveAnimal(q, org.id, animalId);
  const due = await repo.dueById(q, org.id, a.id, dueId, true);
  if (!due) throw notFound('due item');
  if (due.completed_at) throw conflict('That due item is already completed.');
  const item = await repo.itemById(q, org.id, due.item_id);
  if (!item) throw notFound('catalogue item');
  const givenAt = new Date(b.given_at ?? new Date().toISOString()).toISOString();
  const protocol = due.protocol_id ? await repo.protocolById(q, org.id, due.protocol_id) : null;
  const dose = due.dose_number ?? 1;
  const followOn = protocol?.active ? nextDoseOn(protocol, dose, givenAt, org.time_zone, a.date_of_birth) : null;
  const r = normalize({
    kind: item.kind,
    item_id: item.id,
    name: b.name ?? item.name,
    product: b.product !== undefined ? b.product : item.default_product,
    manufacturer: b.manufacturer !== undefined ? b.manufacturer : item.default_manufacturer,
    lot: b.lot ?? null,
    expires_on: b.expires_on ?? null,
    dose: b.dose ?? null,
    route: b.route ?? null,
    given_by: b.given_by ?? null,
    given_at: givenAt,
    next_due_on: b.next_due_on !== undefined ? b.next_due_on : followOn,
    result: b.result ?? null,
    rabies_tag: b.rabies_tag ?? null,
    notes: b.notes ?? null,
  });
  const problems = recordProblems(r, item, a.species, org.time_zone);
  delete problems.item_id; // the due item exists: it is completed even if the catalogue item was narrowed since
  if (Object.keys(problems).length) throw invalid(problems);
  const recordId = await repo.insertRecord(q, org.id, a.id, r);
  await repo.completeDue(q, org.id, due.id, recordId);
  let nextId: string | null = null;
  if (protocol && r.next_due_on !== null && followOn !== null) {
    nextId = await repo.insertDue(q, org.id, {
      animal_id: a.id,
      item_id: item.id,
      kind: item.kind,
      protocol_id: protocol.id,
      dose_number: dose + 1,
      due_on: r.next_due_on,
      from_record_id: recordId,
    });
  } else {
    await syncNextDue(q, org.id, recordId, a.id, r, item.kind);
    nextId = (await repo.dueFromRecord(q, org.id, recordId))[0]?.id ?? null;
  }
  await markAltered(q, org, a.id, r, item);
  await audit(q, org.id, actor, 'complete', 'medical_due', due.id, { record_id: recordId, next_due_item_id: nextId });
  const today = todayIn(org.time_zone);
  const completed = one(await repo.dueByIds(q, org.id, [due.id]));
  const [next] = nextId ? await repo.dueByIds(q, org.id, [nextId]) : [];
  return {
    record: one(await repo.recordsByIds(q, org.id, [recordId])),
    completed: dueWire(completed, today),
    next: next ? dueWire(next, today) : null,
  };
}

// The routes' writes, each one transaction.

export function addRecord(db: Db, org: OrgZone, animalId: string, b: RecordCreateT, actor: string) {
  return db.tx((q) => createRecord(q, org, animalId, b, actor));
}

export function changeRecord(db: Db, org: OrgZone, animalId: string, id: string, b: RecordPatchT, actor: string) {
  return db.tx((q) => updateRecord(q, org, animalId, id, b, actor));
}

export async function removeRecord(db: Db, orgId: string, animalId: string, id: string, actor: string): Promise<void> {
  await db.tx((q) => deleteRecord(q, orgId, animalId, id, actor));
}

export function completeDueItem(db: Db, org: OrgZone, animalId: string, dueId: string, b: CompleteT, actor: string) {
  return db.tx((q) => completeDue(q, org, animalId, dueId, b, actor));
}

export function applyProtocolsNow(db: Db, org: OrgZone, animalId: string, actor: string, entered?: string) {
  return db.tx((q) => applyProtocols(q, org, animalId, actor, entered));
}

/** Whether the animal is spayed/neutered and since when (not in the future; a date only with `altered: true`). */
export async function putAltered(db: Db, org: OrgZone, animalId: string, b: Static<typeof AlteredPut>, actor: string) {
  const orgId = org.id;
  if (!b.altered && b.altered_on) throw invalid({ altered_on: ['is accepted only with altered: true'] });
  if (b.altered_on && b.altered_on > todayIn(org.time_zone)) throw invalid({ altered_on: ['cannot be in the future'] });
  return db.tx(async (q) => {
    if (!(await getAnimal(q, orgId, animalId))) throw notFound('animal');
    const value = { altered: b.altered, altered_on: b.altered_on ?? null };
    await setAltered(q, orgId, animalId, value);
    await audit(q, orgId, actor, 'set_altered', 'animal', animalId, value);
    return value;
  });
}

/** A due item outside any protocol: its item must apply to the animal's species (422). */
export function addDue(db: Db, org: OrgZone, animalId: string, b: Static<typeof DueCreate>, actor: string) {
  const orgId = org.id;
  return db.tx(async (q) => {
    const a = await getAnimal(q, orgId, animalId);
    if (!a) throw notFound('animal');
    const item = await repo.itemById(q, orgId, b.item_id);
    if (!item) throw invalid({ item_id: ['names no catalogue item of this organization'] });
    if (item.species.length && !item.species.includes(a.species.toLowerCase()))
      throw invalid({ item_id: [`names an item that does not apply to ${a.species}`] });
    const id = await repo.insertDue(q, orgId, {
      animal_id: a.id,
      item_id: item.id,
      kind: item.kind,
      protocol_id: null,
      dose_number: null,
      due_on: b.due_on,
      from_record_id: null,
    });
    if (!id) throw new Error('a due item outside any protocol is always inserted');
    await audit(q, orgId, actor, 'create', 'medical_due', id, b);
    return dueWire(repo.one(await repo.dueByIds(q, orgId, [id])), todayIn(org.time_zone));
  });
}

/** An open due item; a completed one answers 409 (its record is deleted instead). */
export async function removeDue(db: Db, orgId: string, animalId: string, dueId: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
    const d = await repo.dueById(q, orgId, animalId, dueId, true);
    if (!d) throw notFound('due item');
    if (d.completed_at) throw conflict('That due item is completed; delete its record instead.');
    await repo.deleteDue(q, orgId, d.id);
    await audit(q, orgId, actor, 'delete', 'medical_due', d.id);
  });
}
