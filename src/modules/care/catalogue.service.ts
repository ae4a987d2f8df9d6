import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { animalMicrochips, getAnimal, latestWeight, lockAnimalPlace } from '../animals/public.ts';
import { mustExist } from './history.service.ts';
import * as repo from './catalogue.repository.ts';
import { ageAtIntake } from '../stays/public.ts';
import type {
  AgeGroupCreateT,
  AgeGroupT,
  AgeGroupUpdateT,
  AnimalBehaviourT,
  BehaviourAttributeCreateT,
  BehaviourAttributeT,
  BehaviourValuesT,
  BreedT,
  ProfileT,
  ProfileUpdateT,
} from './schemas.ts';

export const speciesKey = (s: string) => s.trim().toLowerCase();

// ---- Tags
/** A tag as stored: trimmed, inner white space collapsed to one space, lower case. */
export function tagWord(raw: string, field = 'tag'): string {
  const t = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  if (!t) throw invalid({ [field]: ['must contain a letter or digit'] });
  return t;
}
const MAX_TAGS = 30;

async function lockLive(q: Queryable, orgId: string, animalId: string): Promise<void> {
  if (!(await lockAnimalPlace(q, orgId, animalId, true))) throw notFound('animal');
}

export async function tagsOf(q: Queryable, orgId: string, animalId: string) {
  await mustExist(q, orgId, animalId);
  return { animal_id: animalId, tags: await repo.animalTags(q, orgId, animalId) };
}
export async function replaceTags(db: Db, orgId: string, animalId: string, raw: string[], actor: string) {
  const tags = [...new Set(raw.map((t) => tagWord(t, 'tags')))];
  return db.tx(async (q) => {
    await lockLive(q, orgId, animalId);
    await repo.removeTags(q, orgId, animalId, tags);
    await repo.addTags(q, orgId, animalId, tags);
    await audit(q, orgId, actor, 'set_tags', 'animal', animalId, { tags });
    return { animal_id: animalId, tags: await repo.animalTags(q, orgId, animalId) };
  });
}
export async function addTag(db: Db, orgId: string, animalId: string, raw: string, actor: string) {
  const tag = tagWord(raw);
  return db.tx(async (q) => {
    await lockLive(q, orgId, animalId);
    const current = await repo.animalTags(q, orgId, animalId);
    if (!current.includes(tag) && current.length >= MAX_TAGS) throw invalid({ tag: [`an animal carries at most ${MAX_TAGS} tags`] });
    await repo.addTags(q, orgId, animalId, [tag]);
    await audit(q, orgId, actor, 'add_tag', 'animal', animalId, { tag });
    return { animal_id: animalId, tags: await repo.animalTags(q, orgId, animalId) };
  });
}
export async function removeTag(db: Db, orgId: string, animalId: string, raw: string, actor: string): Promise<void> {
  const tag = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  await db.tx(async (q) => {
    await lockLive(q, orgId, animalId);
    if (!(await repo.removeTags(q, orgId, animalId, null, [tag]))) throw notFound('tag');
    await audit(q, orgId, actor, 'remove_tag', 'animal', animalId, { tag });
  });
}

// ---- Breeds
export async function createBreed(db: Db, orgId: string, b: { species: string; name: string }, actor: string): Promise<BreedT> {
  const species = speciesKey(b.species);
  const name = b.name.trim();
  if (!name) throw invalid({ name: ['must not be blank'] });
  return db.tx(async (q) => {
    if (await repo.breedNamed(q, orgId, species, name)) throw invalid({ name: [`${species} already has a breed named ${name}`] });
    const id = newId('brd');
    await repo.insertBreed(q, orgId, id, species, name);
    await audit(q, orgId, actor, 'create', 'care_breed', id, { species, name });
    const row = await repo.getBreed(q, orgId, id);
    if (!row) throw notFound('breed');
    return row;
  });
}
export async function renameBreed(db: Db, orgId: string, id: string, rawName: string, actor: string): Promise<BreedT> {
  const name = rawName.trim();
  if (!name) throw invalid({ name: ['must not be blank'] });
  return db.tx(async (q) => {
    const b = await repo.getBreed(q, orgId, id);
    if (!b) throw notFound('breed');
    const same = await repo.breedNamed(q, orgId, b.species, name);
    if (same && same.id !== id) throw invalid({ name: [`${b.species} already has a breed named ${name}`] });
    await repo.renameBreed(q, orgId, id, name);
    await auditChanges(q, orgId, actor, 'care_breed', id, b, { ...b, name });
    return { ...b, name };
  });
}
export async function deleteBreed(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.getBreed(q, orgId, id))) throw notFound('breed');
    const n = await repo.breedUses(q, orgId, id);
    if (n) throw invalid({ id: [`${n} animal${n === 1 ? ' has' : 's have'} this breed; change them first`] });
    await repo.deleteBreed(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'care_breed', id);
  });
}

// ---- Age groups
async function checkAgeGroup(q: Queryable, orgId: string, species: string, from: number, to: number | null, id: string | null) {
  if (to !== null && to <= from) throw invalid({ to_weeks: ['must be greater than from_weeks'] });
  await repo.lockAgeGroups(q, orgId, species);
  const clash = await repo.overlapping(q, orgId, species, from, to, id);
  if (clash.length)
    throw invalid({ from_weeks: [`overlaps ${clash.map((c) => c.name).join(', ')}: a ${species}'s age falls in one group only`] });
}
export async function createAgeGroup(db: Db, orgId: string, b: AgeGroupCreateT, actor: string): Promise<AgeGroupT> {
  const species = speciesKey(b.species);
  return db.tx(async (q) => {
    await checkAgeGroup(q, orgId, species, b.from_weeks, b.to_weeks ?? null, null);
    const id = newId('agg');
    await repo.insertAgeGroup(q, orgId, { id, name: b.name, species, from_weeks: b.from_weeks, to_weeks: b.to_weeks ?? null });
    await audit(q, orgId, actor, 'create', 'care_age_group', id, b);
    const row = await repo.getAgeGroup(q, orgId, id);
    if (!row) throw notFound('age group');
    return row;
  });
}
export async function updateAgeGroup(db: Db, orgId: string, id: string, b: AgeGroupUpdateT, actor: string): Promise<AgeGroupT> {
  return db.tx(async (q) => {
    const g = await repo.getAgeGroup(q, orgId, id);
    if (!g) throw notFound('age group');
    const next = {
      id,
      name: b.name ?? g.name,
      from_weeks: b.from_weeks ?? g.from_weeks,
      to_weeks: b.to_weeks === undefined ? g.to_weeks : b.to_weeks,
    };
    await checkAgeGroup(q, orgId, g.species, next.from_weeks, next.to_weeks, id);
    await repo.updateAgeGroup(q, orgId, next);
    await auditChanges(q, orgId, actor, 'care_age_group', id, g, { ...g, ...next });
    return { ...g, ...next };
  });
}
export async function deleteAgeGroup(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteAgeGroup(q, orgId, id))) throw notFound('age group');
    await audit(q, orgId, actor, 'delete', 'care_age_group', id);
  });
}

// ---- Behaviour attributes
export async function createAttribute(db: Db, orgId: string, b: BehaviourAttributeCreateT, actor: string): Promise<BehaviourAttributeT> {
  return db.tx(async (q) => {
    if ((await repo.attributesByKey(q, orgId, [b.key])).length) throw invalid({ key: [`an attribute with key ${b.key} already exists`] });
    const id = newId('bha');
    await repo.insertAttribute(q, orgId, { id, key: b.key, name: b.name, scale: b.scale, sort_order: b.sort_order ?? 0 });
    await audit(q, orgId, actor, 'create', 'care_behaviour_attribute', id, b);
    const row = await repo.getAttribute(q, orgId, id);
    if (!row) throw notFound('behaviour attribute');
    return row;
  });
}
export async function updateAttribute(
  db: Db,
  orgId: string,
  id: string,
  b: { name?: string; sort_order?: number },
  actor: string,
): Promise<BehaviourAttributeT> {
  return db.tx(async (q) => {
    const a = await repo.getAttribute(q, orgId, id);
    if (!a) throw notFound('behaviour attribute');
    const next = { ...a, name: b.name ?? a.name, sort_order: b.sort_order ?? a.sort_order };
    await repo.updateAttribute(q, orgId, id, next.name, next.sort_order);
    await auditChanges(q, orgId, actor, 'care_behaviour_attribute', id, a, next);
    return next;
  });
}
export async function deleteAttribute(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteAttribute(q, orgId, id))) throw notFound('behaviour attribute');
    await audit(q, orgId, actor, 'delete', 'care_behaviour_attribute', id);
  });
}

function toBehaviour(r: { key: string; name: string; scale: string; value: string | null }): AnimalBehaviourT {
  const value = r.value === null ? null : r.scale === 'one_to_five' ? Number(r.value) : (r.value as 'yes' | 'no' | 'unknown');
  return { key: r.key, name: r.name, scale: r.scale as AnimalBehaviourT['scale'], value };
}
export async function behaviourOf(q: Queryable, orgId: string, animalId: string): Promise<AnimalBehaviourT[]> {
  return (await repo.animalBehaviour(q, orgId, animalId)).map(toBehaviour);
}
/** Every named attribute must exist and each value fit its scale, or nothing changes (one 422 names them all). */
export async function setBehaviour(db: Db, orgId: string, animalId: string, b: BehaviourValuesT, actor: string) {
  const keys = Object.keys(b.values);
  return db.tx(async (q) => {
    await lockLive(q, orgId, animalId);
    const attrs = new Map((await repo.attributesByKey(q, orgId, keys)).map((a) => [a.key, a]));
    const problems: string[] = [];
    for (const k of keys) {
      const a = attrs.get(k);
      const v = b.values[k];
      if (!a) problems.push(`${k} is not a behaviour attribute of this organization`);
      else if (v !== null && v !== undefined && (a.scale === 'yes_no') !== (typeof v === 'string'))
        problems.push(`${k} takes ${a.scale === 'yes_no' ? 'yes, no or unknown' : 'an integer from 1 to 5'}`);
    }
    if (problems.length) throw invalid({ values: problems });
    for (const k of keys) {
      const a = attrs.get(k);
      const v = b.values[k];
      if (a) await repo.setValue(q, orgId, animalId, a.id, v === null || v === undefined ? null : String(v));
    }
    await audit(q, orgId, actor, 'set_behaviour', 'animal', animalId, b.values);
    return { animal_id: animalId, behaviour: await behaviourOf(q, orgId, animalId) };
  });
}

// ---- Care profile
/** Whole weeks from the date of birth to today in the organization's time zone. */
export function ageInWeeks(dateOfBirth: string, timeZone: string): number {
  const today = DateTime.now().setZone(timeZone).startOf('day');
  const born = DateTime.fromISO(dateOfBirth, { zone: timeZone }).startOf('day');
  return Math.max(0, Math.floor(today.diff(born, 'days').days / 7));
}

export async function profile(q: Queryable, orgId: string, animalId: string, timeZone: string): Promise<ProfileT> {
  const a = await getAnimal(q, orgId, animalId);
  if (!a) throw notFound('animal');
  const p = await repo.profileRow(q, orgId, animalId);
  const breed = async (id: string | null) => (id ? await repo.getBreed(q, orgId, id) : null);
  let weeks = a.date_of_birth ? ageInWeeks(a.date_of_birth, timeZone) : null;
  let basis: 'date_of_birth' | 'age_at_intake' | null = weeks === null ? null : 'date_of_birth';
  if (weeks === null) {
    const atIntake = await ageAtIntake(q, orgId, animalId);
    if (atIntake) {
      const since = DateTime.fromJSDate(atIntake.intake_at).setZone(timeZone).toISODate();
      weeks = atIntake.age_weeks + (since ? ageInWeeks(since, timeZone) : 0);
      basis = 'age_at_intake';
    }
  }
  return {
    animal_id: a.id,
    name: a.name,
    species: a.species,
    tags: await repo.animalTags(q, orgId, animalId),
    breeds: { primary: await breed(p.primary_breed_id), secondary: await breed(p.secondary_breed_id), mixed: p.mixed },
    age: {
      weeks,
      basis,
      group: weeks === null ? null : await repo.ageGroupFor(q, orgId, speciesKey(a.species), weeks),
    },
    behaviour: await behaviourOf(q, orgId, animalId),
    latest_weight: await latestWeight(q, orgId, animalId),
    microchips: await animalMicrochips(q, orgId, animalId),
  };
}

export async function updateProfile(db: Db, orgId: string, animalId: string, b: ProfileUpdateT, actor: string, timeZone: string) {
  return db.tx(async (q) => {
    await lockLive(q, orgId, animalId);
    const a = await getAnimal(q, orgId, animalId);
    if (!a) throw notFound('animal');
    const cur = await repo.profileRow(q, orgId, animalId);
    const next = {
      primary_breed_id: b.primary_breed_id === undefined ? cur.primary_breed_id : b.primary_breed_id,
      secondary_breed_id: b.secondary_breed_id === undefined ? cur.secondary_breed_id : b.secondary_breed_id,
      mixed: b.mixed ?? cur.mixed,
    };
    const problems: Record<string, string[]> = {};
    for (const f of ['primary_breed_id', 'secondary_breed_id'] as const) {
      const id = b[f];
      if (!id) continue;
      const br = await repo.getBreed(q, orgId, id);
      if (!br) problems[f] = [`${id} is not a breed of this organization`];
      else if (br.species !== speciesKey(a.species)) problems[f] = [`${br.name} is a ${br.species} breed; ${a.name} is a ${a.species}`];
    }
    if (next.secondary_breed_id && !next.primary_breed_id) (problems.secondary_breed_id ??= []).push('needs a primary breed');
    if (next.secondary_breed_id && next.secondary_breed_id === next.primary_breed_id)
      (problems.secondary_breed_id ??= []).push('must differ from the primary breed');
    if (Object.keys(problems).length) throw invalid(problems);
    await repo.saveProfile(q, orgId, animalId, next);
    await audit(q, orgId, actor, 'update_profile', 'animal', animalId, b);
    return profile(q, orgId, animalId, timeZone);
  });
}
