import { placementStartedHooks } from './hooks.ts';
import { addRole, displayName, personSummary } from '../people/public.ts';
import { animalSummary, lockAnimalPlace, setAnimalLocation } from '../animals/public.ts';
import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { checkAnimalLocation } from './housing.service.ts';
import type { HomeCreate, HomeUpdate, OfferBody } from './schemas.ts';
import * as repo from './foster.repository.ts';
import { bondedWarnings } from '../care/public.ts';

/** Today's date in the organization's time zone. */
export function today(timeZone: string): string {
  return DateTime.now().setZone(timeZone).toISODate() ?? new Date().toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86400000));
}

export function toAssignment(r: repo.AssignmentRow, todayIs: string) {
  return {
    id: r.id,
    foster_home_id: r.foster_home_id,
    animal_id: r.animal_id,
    status: r.status,
    requested_on: r.requested_on,
    started_on: r.started_on,
    ended_on: r.ended_on,
    is_live: repo.LIVE.includes(r.status),
    end_reason: r.end_reason,
    decline_reason: r.decline_reason,
    notes: r.notes ?? '',
    updated_at: r.updated_at,
    duration_days: r.started_on ? daysBetween(r.started_on, r.ended_on ?? todayIs) : 0,
    animal_name: r.animal_name,
    animal_species: r.animal_species,
    foster_first_name: r.foster_first_name,
    foster_last_name: r.foster_last_name,
    foster_name: `${r.foster_first_name} ${r.foster_last_name}`.trim(),
  };
}

export function toHome(r: repo.HomeRow) {
  return {
    id: r.id,
    person_id: r.person_id,
    status: r.status,
    capacity: r.capacity,
    spots_filled: r.spots_filled,
    spots_available: Math.max(0, r.capacity - r.spots_filled),
    is_full: r.spots_filled >= r.capacity,
    species_preferences: r.species_preferences,
    accepts_medical: r.accepts_medical,
    accepts_bottle_babies: r.accepts_bottle_babies,
    accepts_behavioral: r.accepts_behavioral,
    approved_on: r.approved_on,
    notes: r.notes ?? '',
    created_at: r.created_at,
    updated_at: r.updated_at,
    person: {
      id: r.person_id,
      first_name: r.first_name,
      last_name: r.last_name,
      display_name: displayName(r),
      email: r.email,
      phone: r.phone,
    },
  };
}

export async function listHomes(
  q: Queryable,
  orgId: string,
  query: repo.HomeFilter & { available?: boolean; limit: number; offset: number },
) {
  const { rows, total } = await repo.listHomes(q, orgId, query, query.limit, query.offset);
  const has_more = rows.length > query.limit;
  let results = rows.slice(0, query.limit).map(toHome);
  if (query.available === undefined)
    return { results, limit: query.limit, offset: query.offset, has_more, total, total_is_page_only: false };
  // The availability filter is applied to the page after it is read (spec): total counts this page only.
  results = results.filter((h) => (query.available ? h.spots_available > 0 : h.spots_available === 0));
  return { results, limit: query.limit, offset: query.offset, has_more, total: results.length, total_is_page_only: true };
}

export async function getHome(q: Queryable, orgId: string, id: string, timeZone: string) {
  const row = await repo.getHome(q, orgId, id);
  if (!row) throw notFound('foster home');
  const assignments = await repo.assignmentsOfHome(q, orgId, id);
  const t = today(timeZone);
  return { foster_home: { ...toHome(row), assignments: assignments.map((a) => toAssignment(a, t)) } };
}

const cleanSpecies = (list: string[]) => [...new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean))];

export async function createHome(db: Db, orgId: string, b: HomeCreate, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    const person = await personSummary(q, orgId, b.person_id, true);
    if (!person) throw invalid({ person_id: [`${b.person_id} names no person of this organization`] });
    if (await repo.homeOfPerson(q, orgId, b.person_id))
      throw invalid({ person_id: ['this person already has a foster home; change that one instead'] });
    // A foster home's person holds the foster role (given here, with the person's audit row).
    if (!person.roles.includes('foster')) await addRole(q, orgId, b.person_id, 'foster', actor);
    const id = newId('fos');
    try {
      await repo.insertHome(q, orgId, {
        id,
        person_id: b.person_id,
        status: b.status ?? 'active',
        capacity: b.capacity,
        species_preferences: cleanSpecies(b.species_preferences ?? []),
        accepts_medical: b.accepts_medical ?? false,
        accepts_bottle_babies: b.accepts_bottle_babies ?? false,
        accepts_behavioral: b.accepts_behavioral ?? false,
        approved_on: b.approved_on ?? null,
        notes: b.notes || null,
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505')
        throw invalid({ person_id: ['this person already has a foster home; change that one instead'] });
      throw err;
    }
    await audit(q, orgId, actor, 'create', 'foster_home', id, b);
    return getHome(q, orgId, id, timeZone);
  });
}

export async function updateHome(db: Db, orgId: string, id: string, b: HomeUpdate, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    const home = await repo.lockHome(q, orgId, id);
    if (!home) throw notFound('foster home');
    const live = await repo.liveCount(q, orgId, id);
    if (b.capacity !== undefined && b.capacity < live)
      throw invalid({ capacity: [`cannot be below the ${live} live assignment(s) of this home`] });
    if (b.status === 'inactive' && live > 0)
      throw invalid({ status: [`cannot be inactive while the home has ${live} live assignment(s); end or cancel them first`] });
    const patch: Record<string, unknown> = { ...b };
    if (b.species_preferences) patch.species_preferences = cleanSpecies(b.species_preferences);
    if (b.notes === '') patch.notes = null;
    await repo.updateHome(q, orgId, id, patch);
    await audit(q, orgId, actor, 'update', 'foster_home', id, b);
    return getHome(q, orgId, id, timeZone);
  });
}

export async function listAssignments(
  q: Queryable,
  orgId: string,
  f: { animal_id?: string; foster_home_id?: string; status?: repo.AssignmentStatus; limit: number; offset: number },
  timeZone: string,
) {
  const rows = await repo.listAssignments(q, orgId, f, f.limit, f.offset);
  const t = today(timeZone);
  return {
    results: rows.slice(0, f.limit).map((a) => toAssignment(a, t)),
    limit: f.limit,
    offset: f.offset,
    has_more: rows.length > f.limit,
  };
}

async function oneAssignment(q: Queryable, orgId: string, id: string, timeZone: string) {
  const row = await repo.getAssignment(q, orgId, id);
  if (!row) throw notFound('foster assignment');
  return toAssignment(row, today(timeZone));
}
export const getAssignment = oneAssignment;

/** Offers an animal to a home (`pending`). The home's row lock serializes capacity; a unique index keeps one live assignment per animal. */
const LIVE: string[] = ['pending', 'accepted', 'active'];

export async function offer(db: Db, orgId: string, homeId: string, b: OfferBody, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    const home = await repo.lockHome(q, orgId, homeId);
    if (!home) throw notFound('foster home');
    if (home.status !== 'active') throw invalid({ foster_home_id: [`the home is ${home.status} and takes no new animals`] });
    const animal = await animalSummary(q, orgId, b.animal_id);
    if (!animal) throw invalid({ animal_id: [`${b.animal_id} names no animal of this organization`] });
    if (animal.care_state !== 'in_care' && animal.care_state !== 'on_hold')
      throw invalid({ animal_id: [`the animal is not in care (${animal.care_state})`] });
    const other = await repo.liveAssignmentOfAnimal(q, orgId, b.animal_id);
    if (other)
      throw invalid({ animal_id: [`this animal already has a live foster assignment (${other.id}, home ${other.foster_home_id})`] });
    const live = await repo.liveCount(q, orgId, homeId);
    if (live >= home.capacity) throw invalid({ foster_home_id: [`the home is full (${live} of ${home.capacity})`] });
    const id = newId('fas');
    try {
      await repo.insertAssignment(q, orgId, {
        id,
        foster_home_id: homeId,
        animal_id: b.animal_id,
        requested_on: b.requested_on ?? today(timeZone),
        notes: b.notes || null,
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw invalid({ animal_id: ['this animal already has a live foster assignment'] });
      throw err;
    }
    await audit(q, orgId, actor, 'offer', 'foster_assignment', id, { foster_home_id: homeId, animal_id: b.animal_id });
    // A bonded partner not going to this home is a split pair: allowed, and said in `warnings`.
    const housemates = (await repo.assignmentsOfHome(q, orgId, homeId)).filter((a) => LIVE.includes(a.status)).map((a) => a.animal_id);
    return { ...(await oneAssignment(q, orgId, id, timeZone)), warnings: await bondedWarnings(q, orgId, [b.animal_id], housemates) };
  });
}

/**
 * Ending a placement straight into another home: a new assignment there, active from the day the first ended,
 * remembering where the animal was before fostering (so a later return to the shelter goes back there). The home
 * must take animals and have room (its row lock serializes capacity, as an offer's does).
 */
async function moveToHome(q: Queryable, orgId: string, from: repo.AssignmentRow, homeId: string, on: string, actor: string) {
  const home = await repo.lockHome(q, orgId, homeId);
  if (!home) throw invalid({ next_foster_home_id: ['names no foster home of this organization'] });
  if (home.status !== 'active') throw invalid({ next_foster_home_id: [`the home is ${home.status} and takes no new animals`] });
  const live = await repo.liveCount(q, orgId, homeId);
  if (live >= home.capacity) throw invalid({ next_foster_home_id: [`the home is full (${live} of ${home.capacity})`] });
  const id = newId('fas');
  await repo.insertAssignment(q, orgId, { id, foster_home_id: homeId, animal_id: from.animal_id, requested_on: on, notes: null });
  await repo.updateAssignment(q, orgId, id, { status: 'active', started_on: on, previous_location_id: from.previous_location_id });
  await setAnimalLocation(q, orgId, from.animal_id, homeId);
  await audit(q, orgId, actor, 'start', 'foster_assignment', id, {
    foster_home_id: homeId,
    animal_id: from.animal_id,
    moved_from: from.id,
  });
  return id;
}

type Action = 'accept' | 'decline' | 'start' | 'end' | 'cancel';
const FROM: Record<Action, repo.AssignmentStatus[]> = {
  accept: ['pending'],
  decline: ['pending', 'accepted'],
  start: ['pending', 'accepted'],
  end: ['active'],
  cancel: ['pending', 'accepted'],
};
/** Ending for these reasons leaves the animal with no place (it left the organization's care). */
const LEAVES_CARE: repo.EndReason[] = ['adopted', 'transferred_out', 'returned_to_owner', 'died'];

export interface ActionBody {
  decline_reason?: string;
  end_reason?: repo.EndReason;
  started_on?: string;
  ended_on?: string;
  return_location_id?: string | null;
  next_foster_home_id?: string;
  notes?: string | null;
}

export async function act(db: Db, orgId: string, id: string, action: Action, b: ActionBody, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    const a = await repo.getAssignment(q, orgId, id, true);
    if (!a) throw notFound('foster assignment');
    if (!FROM[action].includes(a.status)) throw invalid({ status: [`is ${a.status}; ${action} needs ${FROM[action].join(' or ')}`] });
    const t = today(timeZone);
    const patch: Record<string, unknown> = {};
    if (b.notes !== undefined) patch.notes = b.notes || null;
    switch (action) {
      case 'accept':
        patch.status = 'accepted';
        break;
      case 'decline':
        patch.status = 'declined';
        patch.decline_reason = b.decline_reason;
        patch.ended_on = t;
        break;
      case 'cancel':
        patch.status = 'cancelled';
        patch.ended_on = t;
        break;
      case 'start': {
        const started = b.started_on ?? t;
        if (started < a.requested_on) throw invalid({ started_on: ['cannot be before the offer was made'] });
        const animal = await lockAnimalPlace(q, orgId, a.animal_id, false);
        patch.status = 'active';
        patch.started_on = started;
        patch.previous_location_id = animal?.location_id ?? null;
        // The animal's location follows the placement: it becomes the foster home's id.
        await setAnimalLocation(q, orgId, a.animal_id, a.foster_home_id);
        const home = await repo.getHome(q, orgId, a.foster_home_id);
        if (home) await placementStartedHooks(q, orgId, { assignmentId: id, animalId: a.animal_id, personId: home.person_id });
        break;
      }
      case 'end': {
        const ended = b.ended_on ?? t;
        if (a.started_on && ended < a.started_on) throw invalid({ ended_on: ['cannot be before the assignment started'] });
        if (ended > t) throw invalid({ ended_on: ['cannot be in the future'] });
        if (b.next_foster_home_id !== undefined) {
          if (b.end_reason !== 'moved_to_another_foster')
            throw invalid({ end_reason: ['must be moved_to_another_foster when next_foster_home_id names the next home'] });
          if (b.return_location_id !== undefined)
            throw invalid({ return_location_id: ['cannot be sent with next_foster_home_id: the animal goes to the next home'] });
          if (b.next_foster_home_id === a.foster_home_id) throw invalid({ next_foster_home_id: ['is the home the animal is leaving'] });
        }
        patch.status = 'completed';
        patch.ended_on = ended;
        patch.end_reason = b.end_reason;
        await repo.updateAssignment(q, orgId, id, patch);
        const animal = await lockAnimalPlace(q, orgId, a.animal_id, false);
        if (b.next_foster_home_id !== undefined) {
          const nextId = await moveToHome(q, orgId, a, b.next_foster_home_id, ended, actor);
          await audit(q, orgId, actor, action, 'foster_assignment', id, { ...b, next_assignment_id: nextId });
          return oneAssignment(q, orgId, id, timeZone);
        }
        if (animal?.location_id === a.foster_home_id) {
          let next: string | null = null;
          if (b.return_location_id !== undefined && b.return_location_id !== null) {
            await checkAnimalLocation(q, orgId, b.return_location_id, a.animal_id, 'return_location_id');
            next = b.return_location_id;
          } else if (
            b.return_location_id === undefined &&
            !LEAVES_CARE.includes(b.end_reason as repo.EndReason) &&
            a.previous_location_id
          ) {
            // Back where it was, when that place still has room.
            next = await checkAnimalLocation(q, orgId, a.previous_location_id, a.animal_id).then(
              () => a.previous_location_id,
              () => null,
            );
          }
          await setAnimalLocation(q, orgId, a.animal_id, next);
        }
        await audit(q, orgId, actor, action, 'foster_assignment', id, b);
        return oneAssignment(q, orgId, id, timeZone);
      }
      default: {
        const never: never = action;
        throw new Error(`unknown action ${String(never)}`);
      }
    }
    await repo.updateAssignment(q, orgId, id, patch);
    await audit(q, orgId, actor, action, 'foster_assignment', id, b);
    return oneAssignment(q, orgId, id, timeZone);
  });
}
