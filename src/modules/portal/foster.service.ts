import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { addWeight, animalSummaries } from '../animals/public.ts';
import { addFosterNote, fosterCareInstructions } from '../care/public.ts';
import { openDueItems, recordTreatmentGiven } from '../medical/public.ts';
import { addOutsidePhoto, publishPhotos } from '../media/public.ts';
import { livePlacementsOfPerson } from '../operations/public.ts';
import { displayNames, personSummary } from '../people/public.ts';
import { createStaffTask } from '../tasks/public.ts';
import * as repo from './repository.ts';
import type { Caller } from './service.ts';

export const MAX_PHOTOS = 4;
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;

export interface FosterAnimal {
  id: string;
  name: string;
  species: string;
  placement_id: string;
  placement: 'pending' | 'accepted' | 'active';
  since: string | null;
}

/** The animals offered to, accepted by or in the care of the caller's foster home. */
export async function fosterAnimals(q: Queryable, c: Caller): Promise<FosterAnimal[]> {
  const placements = await livePlacementsOfPerson(q, c.org.id, c.personId);
  const animals = new Map(
    (
      await animalSummaries(
        q,
        c.org.id,
        placements.map((p) => p.animal_id),
      )
    ).map((a) => [a.id, a]),
  );
  return placements.flatMap((p) => {
    const a = animals.get(p.animal_id);
    return a ? [{ id: a.id, name: a.name, species: a.species, placement_id: p.id, placement: p.status, since: p.started_on }] : [];
  });
}

/** The animal when it is in the caller's care (an active placement); anything else is not found, as if it did not exist. */
export async function inMyCare(q: Queryable, c: Caller, animalId: string): Promise<FosterAnimal> {
  const a = (await fosterAnimals(q, c)).find((x) => x.id === animalId && x.placement === 'active');
  if (!a) throw notFound('animal');
  return a;
}

/** What the foster page of one animal shows: the care instructions staff shared and the medical items due. */
export async function fosterAnimalPage(q: Queryable, c: Caller, animalId: string) {
  const animal = await inMyCare(q, c, animalId);
  const care = await fosterCareInstructions(q, c.org.id, animalId);
  const due = await openDueItems(q, c.org.id, animalId);
  const updates = await repo.listUpdates(q, c.org.id, { animal_id: animalId, person_id: c.personId }, 10, 0);
  return { animal, care, due: due.slice(0, 20), updates: updates.slice(0, 10).reverse() };
}

/**
 * A foster's update: the text becomes an internal note of kind foster on the animal, each photo an animal photo that
 * is not public, both named as the foster's; the update waits in the staff review queue. Photos are stored first
 * (a file that cannot be read refuses the whole update).
 */
export async function postUpdate(
  db: Db,
  config: Config,
  c: Caller,
  animalId: string,
  body: string,
  photos: { data: Buffer; filename: string | null }[],
) {
  await inMyCare(db, c, animalId);
  const text = body.trim();
  if (!text && !photos.length) throw invalid({ body: ['write something or add a photo'] });
  if (text.length > 5000) throw invalid({ body: ['must be at most 5000 characters'] });
  if (photos.length > MAX_PHOTOS) throw invalid({ photos: [`at most ${MAX_PHOTOS} photos at once`] });
  const photoIds: string[] = [];
  for (const p of photos)
    photoIds.push(await addOutsidePhoto(db, config, c.org.id, c.actor, animalId, { ...p, caption: 'From the foster' }, 'photo'));
  return db.tx(async (q) => {
    const noteId = await addFosterNote(q, c.org.id, animalId, text || '(photos only)', c.actor);
    const u = await repo.insertUpdate(q, c.org.id, {
      id: newId('pup'),
      person_id: c.personId,
      animal_id: animalId,
      body: text,
      note_id: noteId,
      photo_ids: photoIds,
    });
    await audit(q, c.org.id, c.actor, 'portal_update', 'animal', animalId, { update_id: u.id, photos: photoIds.length });
    return u;
  });
}

export async function recordWeight(db: Db, c: Caller, animalId: string, weight: number, unit: 'kg' | 'lb') {
  await inMyCare(db, c, animalId);
  return addWeight(db, c.org.id, animalId, { weight, unit, notes: 'Recorded by the foster' }, c.actor, c.org.time_zone);
}

export async function reportMedication(
  db: Db,
  c: Caller,
  animalId: string,
  m: { name: string; dose: string | null; given_at: Date; notes: string | null },
) {
  await inMyCare(db, c, animalId);
  const me = await personSummary(db, c.org.id, c.personId);
  return db.tx((q) =>
    recordTreatmentGiven(
      q,
      c.org,
      animalId,
      {
        name: m.name,
        dose: m.dose,
        given_at: m.given_at.toISOString(),
        given_by: me ? `${me.display_name} (foster)` : 'Foster',
        notes: m.notes,
      },
      c.actor,
    ),
  );
}

export const REQUEST_KINDS = { supplies: 'Supplies', vet_visit: 'Vet visit' } as const;
export type RequestKind = keyof typeof REQUEST_KINDS;

/** A request for supplies or a vet visit: a task for staff linked to the animal (urgent vet visits are high priority). */
export async function requestHelp(db: Db, c: Caller, animalId: string, kind: RequestKind, details: string) {
  const a = await inMyCare(db, c, animalId);
  const text = details.trim();
  if (!text) throw invalid({ details: ['say what is needed'] });
  if (text.length > 2000) throw invalid({ details: ['must be at most 2000 characters'] });
  const me = await personSummary(db, c.org.id, c.personId);
  const who = me?.display_name ?? 'The foster';
  return db.tx(async (q) => {
    const id = await createStaffTask(q, c.org.id, c.actor, {
      title: `${REQUEST_KINDS[kind]} for ${a.name} (asked by ${who})`,
      notes: text,
      linked_type: 'animal',
      linked_id: animalId,
      priority: kind === 'vet_visit' ? 'high' : 'normal',
    });
    await audit(q, c.org.id, c.actor, 'portal_request', 'animal', animalId, { kind, task_id: id });
    return id;
  });
}

// ---- Staff review ----

export async function updatesView(q: Queryable, orgId: string, rows: repo.UpdateRow[]) {
  const names = await displayNames(
    q,
    orgId,
    rows.map((r) => r.person_id),
  );
  const animals = new Map((await animalSummaries(q, orgId, [...new Set(rows.map((r) => r.animal_id))])).map((a) => [a.id, a.name]));
  return rows.map((r) => ({
    ...r,
    person_name: names.get(r.person_id) ?? '',
    animal_name: animals.get(r.animal_id) ?? '',
    photo_urls: r.photo_ids.map((p) => `/api/animals/${r.animal_id}/photos/${p}/medium`),
  }));
}

/**
 * Approves (its photos become public unless `publish_photos` is false) or declines a pending update; a reviewed one
 * cannot change (422).
 */
export async function review(db: Db, orgId: string, actor: string, id: string, decision: 'approved' | 'declined', publish = true) {
  return db.tx(async (q) => {
    const u = await repo.updateById(q, orgId, id, true);
    if (!u) throw notFound('update');
    if (u.status !== 'pending') throw invalid({ status: [`is ${u.status} already`] });
    await repo.reviewUpdate(q, orgId, id, decision, actor);
    if (decision === 'approved' && publish) await publishPhotos(q, orgId, actor, u.animal_id, u.photo_ids);
    await audit(q, orgId, actor, decision === 'approved' ? 'approve_portal_update' : 'decline_portal_update', 'animal', u.animal_id, {
      update_id: id,
    });
    return (await updatesView(q, orgId, [(await repo.updateById(q, orgId, id)) as repo.UpdateRow]))[0];
  });
}
