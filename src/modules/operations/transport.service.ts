import { partnerExists } from '../partners/public.ts';
import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { displayName, personExists } from '../people/public.ts';
import { animalExists } from '../animals/public.ts';
import type { LegCreate, LegPatch, RunAnimalBody, RunCreate, RunPatch } from './schemas.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './transport.repository.ts';
import { transportProblems } from './transport.problems.ts';
import { bondedWarnings } from '../care/public.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function assemble(run: repo.RunRow, legs: repo.LegRow[], animals: repo.RunAnimalRow[], timeZone: string) {
  const myLegs = legs.filter((l) => l.run_id === run.id);
  const myAnimals = animals.filter((a) => a.run_id === run.id);
  const problems = transportProblems({
    origin: run.origin,
    destination: run.destination,
    scheduled_date: run.scheduled_date,
    timeZone,
    legs: myLegs.map((l) => ({ ...l, driver_on_file: l.driver_on_file })),
    animals: myAnimals.map((a) => ({ id: a.animal_id, name: a.name, care_state: a.care_state, on_file: !a.deleted })),
  });
  return {
    ...run,
    notes: run.notes ?? '',
    legs: myLegs.map((l) => ({
      id: l.id,
      sequence: l.sequence,
      from_place: l.from_place,
      to_place: l.to_place,
      driver_person_id: l.driver_person_id,
      depart_at: iso(l.depart_at),
      arrive_at: iso(l.arrive_at),
      driver_name:
        l.driver_first_name === null ? null : displayName({ first_name: l.driver_first_name, last_name: l.driver_last_name ?? '' }),
      notes: l.notes ?? '',
    })),
    animals: myAnimals.map((a) => ({ id: a.animal_id, name: a.name, species: a.species, status: a.status, notes: a.notes ?? '' })),
    problems,
  };
}
export type Run = ReturnType<typeof assemble>;

/** A page of runs, each whole (GET /api/animals/transports; on the read replica when the request has one). */
export async function listRuns(
  q: Queryable,
  orgId: string,
  f: { status?: repo.RunStatus; from?: string; to?: string; animal_id?: string; limit: number; offset: number },
  timeZone: string,
) {
  const page = pageB(await repo.listRuns(q, orgId, f, f.limit, f.offset), f.limit, f.offset);
  return { ...page, results: await runs(q, orgId, page.results, timeZone) };
}

export async function runs(q: Queryable, orgId: string, rows: repo.RunRow[], timeZone: string) {
  const ids = rows.map((r) => r.id);
  const [legs, animals] = await Promise.all([repo.legsOf(q, orgId, ids), repo.animalsOf(q, orgId, ids)]);
  return rows.map((r) => assemble(r, legs, animals, timeZone));
}
export async function getRun(q: Queryable, orgId: string, id: string, timeZone: string): Promise<Run> {
  const row = await repo.getRun(q, orgId, id);
  if (!row) throw notFound('transport run');
  return first(await runs(q, orgId, [row], timeZone));
}

/** A named partner must be on file (partners module). */
async function checkPartner(q: Queryable, orgId: string, id: string | null | undefined) {
  if (id && !(await partnerExists(q, orgId, id))) throw invalid({ partner_id: ['names no partner of this organization'] });
}

export async function createRun(db: Db, orgId: string, b: RunCreate, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    await checkPartner(q, orgId, b.partner_id);
    const id = newId('trn');
    await repo.insertRun(q, orgId, {
      id,
      name: b.name,
      scheduled_date: b.scheduled_date,
      origin: b.origin.trim(),
      destination: b.destination.trim(),
      notes: b.notes || null,
      partner_id: b.partner_id ?? null,
    });
    await audit(q, orgId, actor, 'create', 'transport_run', id, b);
    return getRun(q, orgId, id, timeZone);
  });
}

const EDITABLE: repo.RunStatus[] = ['planning', 'confirmed'];

/**
 * Runs a change to a run's plan in one transaction, with the run locked. Only planning and
 * confirmed runs change (notes change in any state but completed/cancelled, see `update`);
 * a confirmed run that the change leaves with problems goes back to planning.
 */
async function change(
  db: Db,
  orgId: string,
  id: string,
  actor: string,
  timeZone: string,
  what: string,
  fn: (q: Queryable, run: repo.RunRow) => Promise<void>,
  allowed = EDITABLE,
) {
  return db.tx(async (q) => {
    const run = await repo.getRun(q, orgId, id, true);
    if (!run) throw notFound('transport run');
    if (!allowed.includes(run.status))
      throw invalid({ status: [`is ${run.status}; the run can be changed only while ${allowed.join(' or ')}`] });
    await fn(q, run);
    let after = await getRun(q, orgId, id, timeZone);
    if (after.status === 'confirmed' && after.problems.length) {
      await repo.updateRun(q, orgId, id, { status: 'planning' });
      after = await getRun(q, orgId, id, timeZone);
    }
    await audit(q, orgId, actor, what, 'transport_run', id);
    return after;
  });
}

export async function updateRun(db: Db, orgId: string, id: string, b: RunPatch, actor: string, timeZone: string) {
  const onlyNotes = Object.keys(b).every((k) => k === 'notes');
  return change(
    db,
    orgId,
    id,
    actor,
    timeZone,
    'update',
    async (q) => {
      await checkPartner(q, orgId, b.partner_id);
      const patch: Record<string, unknown> = { ...b };
      if (b.notes === '') patch.notes = null;
      if (b.origin) patch.origin = b.origin.trim();
      if (b.destination) patch.destination = b.destination.trim();
      await repo.updateRun(q, orgId, id, patch);
    },
    onlyNotes ? ['planning', 'confirmed', 'in_progress'] : EDITABLE,
  );
}

async function checkDriver(q: Queryable, orgId: string, personId: string | null | undefined) {
  if (!personId) return;
  if (!(await personExists(q, orgId, personId))) throw invalid({ driver_person_id: [`${personId} names no person of this organization`] });
}

export async function addLeg(db: Db, orgId: string, runId: string, b: LegCreate, actor: string, timeZone: string) {
  return change(db, orgId, runId, actor, timeZone, 'add_leg', async (q) => {
    await checkDriver(q, orgId, b.driver_person_id);
    const legs = await repo.legsOf(q, orgId, [runId]);
    const at = b.sequence === undefined ? legs.length : Math.min(Math.max(b.sequence, 1), legs.length + 1) - 1;
    const id = newId('leg');
    await repo.insertLeg(q, orgId, runId, id, legs.length + 1, {
      from_place: b.from_place.trim(),
      to_place: b.to_place.trim(),
      driver_person_id: b.driver_person_id ?? null,
      depart_at: b.depart_at ?? null,
      arrive_at: b.arrive_at ?? null,
      notes: b.notes || null,
    });
    const order = legs.map((l) => l.id);
    order.splice(at, 0, id);
    await repo.setLegOrder(q, orgId, order);
  });
}

export async function updateLeg(db: Db, orgId: string, runId: string, legId: string, b: LegPatch, actor: string, timeZone: string) {
  return change(db, orgId, runId, actor, timeZone, 'update_leg', async (q) => {
    const legs = await repo.legsOf(q, orgId, [runId]);
    if (!legs.some((l) => l.id === legId)) throw notFound('leg');
    await checkDriver(q, orgId, b.driver_person_id);
    const patch: Record<string, unknown> = { ...b };
    delete patch.sequence;
    if (b.notes === '') patch.notes = null;
    if (b.from_place) patch.from_place = b.from_place.trim();
    if (b.to_place) patch.to_place = b.to_place.trim();
    await repo.updateLeg(q, orgId, legId, patch);
    if (b.sequence !== undefined) {
      const order = legs.map((l) => l.id).filter((x) => x !== legId);
      order.splice(Math.min(Math.max(b.sequence, 1), legs.length) - 1, 0, legId);
      await repo.setLegOrder(q, orgId, order);
    }
  });
}

export async function removeLeg(db: Db, orgId: string, runId: string, legId: string, actor: string, timeZone: string) {
  return change(db, orgId, runId, actor, timeZone, 'remove_leg', async (q) => {
    const legs = await repo.legsOf(q, orgId, [runId]);
    if (!legs.some((l) => l.id === legId)) throw notFound('leg');
    await repo.deleteLeg(q, orgId, legId);
    await repo.setLegOrder(
      q,
      orgId,
      legs.map((l) => l.id).filter((x) => x !== legId),
    );
  });
}

export async function reorderLegs(db: Db, orgId: string, runId: string, legIds: string[], actor: string, timeZone: string) {
  return change(db, orgId, runId, actor, timeZone, 'reorder_legs', async (q) => {
    const legs = await repo.legsOf(q, orgId, [runId]);
    const have = new Set(legs.map((l) => l.id));
    if (legIds.length !== legs.length || !legIds.every((x) => have.has(x))) {
      throw invalid({ leg_ids: [`must list each of the run's ${legs.length} leg(s) exactly once`] });
    }
    await repo.setLegOrder(q, orgId, legIds);
  });
}

export async function addAnimal(db: Db, orgId: string, runId: string, b: RunAnimalBody, actor: string, timeZone: string) {
  const run = await change(db, orgId, runId, actor, timeZone, 'add_animal', async (q) => {
    if (!(await animalExists(q, orgId, b.animal_id))) throw invalid({ animal_id: [`${b.animal_id} names no animal of this organization`] });
    if (!(await repo.addAnimal(q, orgId, runId, b.animal_id, b.notes || null))) throw invalid({ animal_id: ['is already on this run'] });
  });
  // A bonded partner not on this run is a split pair: allowed, and said in `warnings`.
  const aboard = run.animals.map((a) => a.id);
  return { ...run, warnings: await bondedWarnings(db, orgId, [b.animal_id], aboard) };
}

export async function removeAnimal(db: Db, orgId: string, runId: string, animalId: string, actor: string, timeZone: string) {
  return change(db, orgId, runId, actor, timeZone, 'remove_animal', async (q) => {
    if (!(await repo.removeAnimal(q, orgId, runId, animalId))) throw notFound('animal on this run');
  });
}

/** planning → confirmed (only without problems) → in_progress → completed; planning, confirmed or in_progress → cancelled. */
export const TRANSITIONS: Record<'confirm' | 'start' | 'complete' | 'cancel', { from: repo.RunStatus[]; to: repo.RunStatus }> = {
  confirm: { from: ['planning'], to: 'confirmed' },
  start: { from: ['confirmed'], to: 'in_progress' },
  complete: { from: ['in_progress'], to: 'completed' },
  cancel: { from: ['planning', 'confirmed', 'in_progress'], to: 'cancelled' },
};

export async function transition(db: Db, orgId: string, id: string, action: keyof typeof TRANSITIONS, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    const row = await repo.getRun(q, orgId, id, true);
    if (!row) throw notFound('transport run');
    const t = TRANSITIONS[action];
    if (!t.from.includes(row.status)) throw invalid({ status: [`is ${row.status}; ${action} needs a run that is ${t.from.join(' or ')}`] });
    if (action === 'confirm') {
      const run = await getRun(q, orgId, id, timeZone);
      if (run.problems.length) {
        throw new AppError(
          'VALIDATION_ERROR',
          `The run cannot be confirmed yet: ${run.problems.map((p) => p.message.replace(/\.$/, '')).join('; ')}.`,
          { problems: run.problems.map((p) => `${p.kind}: ${p.message}`) },
          422,
        );
      }
    }
    await repo.updateRun(q, orgId, id, { status: t.to });
    await audit(q, orgId, actor, action, 'transport_run', id);
    return getRun(q, orgId, id, timeZone);
  });
}
