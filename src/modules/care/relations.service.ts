import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { getAnimal, lockAnimalPlace } from '../animals/public.ts';
import { mustExist } from './history.service.ts';
import * as repo from './relations.repository.ts';
import type { AnimalRefT, LitterCreateT, LitterT, LitterUpdateT, RelationshipsT } from './schemas.ts';

export async function relationships(q: Queryable, orgId: string, animalId: string): Promise<RelationshipsT> {
  await mustExist(q, orgId, animalId);
  const partners = (await repo.bondPartners(q, orgId, [animalId])).map((p) => p.partner_id);
  const mother = await repo.motherOf(q, orgId, animalId);
  const offspring = await repo.offspringOf(q, orgId, animalId);
  const all = await repo.refs(q, orgId, [...partners, ...offspring, ...(mother ? [mother] : [])]);
  const pick = (ids: string[]) => all.filter((r) => ids.includes(r.id));
  return {
    animal_id: animalId,
    bonded_with: pick(partners),
    mother: mother ? (pick([mother])[0] ?? null) : null,
    offspring: pick(offspring),
    litter: await repo.litterOf(q, orgId, animalId),
  };
}

/** A live animal of the organization for a relationship field, else 422 naming the field. */
async function other(q: Queryable, orgId: string, id: string, field: string) {
  const a = await getAnimal(q, orgId, id);
  if (!a) throw invalid({ [field]: [`${id} names no animal of this organization`] });
  return a;
}

export async function bond(db: Db, orgId: string, animalId: string, b: { animal_id: string; notes?: string | null }, actor: string) {
  return db.tx(async (q) => {
    await mustExist(q, orgId, animalId);
    if (b.animal_id === animalId) throw invalid({ animal_id: ['an animal cannot be bonded with itself'] });
    await other(q, orgId, b.animal_id, 'animal_id');
    if (!(await repo.insertBond(q, orgId, animalId, b.animal_id, b.notes || null)))
      throw invalid({ animal_id: ['these two animals are already bonded'] });
    await audit(q, orgId, actor, 'bond', 'animal', animalId, { with: b.animal_id });
    return relationships(q, orgId, animalId);
  });
}

export async function unbond(db: Db, orgId: string, animalId: string, otherId: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    await mustExist(q, orgId, animalId);
    if (!(await repo.deleteBond(q, orgId, animalId, otherId))) throw notFound('bond');
    await audit(q, orgId, actor, 'unbond', 'animal', animalId, { with: otherId });
  });
}

async function checkMother(q: Queryable, orgId: string, offspringId: string, motherId: string, field: string): Promise<void> {
  const child = await getAnimal(q, orgId, offspringId);
  if (!child) throw notFound('animal');
  if (motherId === offspringId) throw invalid({ [field]: ['an animal cannot be its own mother'] });
  const mother = await other(q, orgId, motherId, field);
  if (mother.sex === 'male') throw invalid({ [field]: [`${mother.name} is recorded as male`] });
  if (mother.species.toLowerCase() !== child.species.toLowerCase())
    throw invalid({ [field]: [`${mother.name} is a ${mother.species}, ${child.name} a ${child.species}`] });
  if ((await repo.ancestors(q, orgId, motherId)).includes(offspringId))
    throw invalid({ [field]: [`${child.name} is already recorded as an ancestor of ${mother.name}`] });
}

export async function setMother(db: Db, orgId: string, animalId: string, motherId: string, actor: string): Promise<RelationshipsT> {
  return db.tx(async (q) => {
    // Both animals locked (in id order) so two requests cannot record a cycle between them.
    for (const id of [animalId, motherId].sort()) await lockAnimalPlace(q, orgId, id, true);
    await checkMother(q, orgId, animalId, motherId, 'mother_id');
    await repo.setMother(q, orgId, animalId, motherId, true);
    await audit(q, orgId, actor, 'set_mother', 'animal', animalId, { mother_id: motherId });
    return relationships(q, orgId, animalId);
  });
}

export async function clearMother(db: Db, orgId: string, animalId: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    await mustExist(q, orgId, animalId);
    if (!(await repo.clearMother(q, orgId, animalId))) throw notFound('mother');
    await audit(q, orgId, actor, 'clear_mother', 'animal', animalId);
  });
}

async function toLitters(q: Queryable, orgId: string, rows: repo.LitterRow[]): Promise<LitterT[]> {
  const members = await repo.litterMembers(
    q,
    orgId,
    rows.map((r) => r.id),
  );
  const ids = [...members.map((m) => m.animal_id), ...rows.flatMap((r) => (r.mother_id ? [r.mother_id] : []))];
  const byId = new Map((await repo.refs(q, orgId, ids)).map((r) => [r.id, r]));
  return rows.map(({ mother_id, ...r }) => ({
    ...(r as Omit<LitterT, 'mother' | 'members'>),
    mother: (mother_id && byId.get(mother_id)) || null,
    members: members.flatMap((m): AnimalRefT[] => {
      const ref = m.litter_id === r.id ? byId.get(m.animal_id) : undefined;
      return ref ? [ref] : [];
    }),
  }));
}

export async function litter(q: Queryable, orgId: string, id: string): Promise<LitterT> {
  const row = await repo.getLitter(q, orgId, id);
  if (!row) throw notFound('litter');
  const [out] = await toLitters(q, orgId, [row]);
  if (!out) throw notFound('litter');
  return out;
}
export async function litters(q: Queryable, orgId: string, limit: number, offset: number): Promise<LitterT[]> {
  return toLitters(q, orgId, await repo.listLitters(q, orgId, limit + 1, offset));
}

/**
 * Adds a member: a live animal of the litter's species, not its mother, in no other litter. With a
 * mother known, a member without a recorded mother gets her.
 */
async function addMember(
  q: Queryable,
  orgId: string,
  l: Pick<repo.LitterRow, 'id' | 'species' | 'mother_id'>,
  animalId: string,
  field: string,
): Promise<void> {
  const a = await other(q, orgId, animalId, field);
  if (a.species.toLowerCase() !== l.species) throw invalid({ [field]: [`${a.name} is a ${a.species}; the litter is ${l.species}`] });
  if (animalId === l.mother_id) throw invalid({ [field]: [`${a.name} is the litter's mother`] });
  const current = await repo.litterOf(q, orgId, animalId);
  if (current) throw invalid({ [field]: [`${a.name} is already in litter ${current.name} (${current.id})`] });
  await repo.addMember(q, orgId, l.id, animalId);
  if (l.mother_id) {
    await checkMother(q, orgId, animalId, l.mother_id, field);
    await repo.setMother(q, orgId, animalId, l.mother_id, false);
  }
}

export async function createLitter(db: Db, orgId: string, b: LitterCreateT, actor: string): Promise<LitterT> {
  return db.tx(async (q) => {
    const species = b.species.trim().toLowerCase();
    if (b.mother_id) {
      const m = await other(q, orgId, b.mother_id, 'mother_id');
      if (m.sex === 'male') throw invalid({ mother_id: [`${m.name} is recorded as male`] });
      if (m.species.toLowerCase() !== species) throw invalid({ mother_id: [`${m.name} is a ${m.species}; the litter is ${species}`] });
    }
    const row = {
      id: newId('ltr'),
      name: b.name,
      species,
      origin: b.origin,
      born_on: b.born_on ?? null,
      mother_id: b.mother_id ?? null,
      notes: b.notes || null,
    };
    await repo.insertLitter(q, orgId, row);
    for (const id of b.animal_ids ?? []) await addMember(q, orgId, row, id, 'animal_ids');
    await audit(q, orgId, actor, 'create', 'care_litter', row.id, { name: b.name, animal_ids: b.animal_ids ?? [] });
    return litter(q, orgId, row.id);
  });
}

export async function updateLitter(db: Db, orgId: string, id: string, b: LitterUpdateT, actor: string): Promise<LitterT> {
  return db.tx(async (q) => {
    const l = await repo.getLitter(q, orgId, id, true);
    if (!l) throw notFound('litter');
    if (b.mother_id) {
      const m = await other(q, orgId, b.mother_id, 'mother_id');
      if (m.sex === 'male') throw invalid({ mother_id: [`${m.name} is recorded as male`] });
      if (m.species.toLowerCase() !== l.species) throw invalid({ mother_id: [`${m.name} is a ${m.species}; the litter is ${l.species}`] });
      const members = await repo.litterMembers(q, orgId, [id]);
      if (members.some((x) => x.animal_id === b.mother_id)) throw invalid({ mother_id: ['the mother cannot be a member of the litter'] });
      for (const x of members) {
        await checkMother(q, orgId, x.animal_id, b.mother_id, 'mother_id');
        await repo.setMother(q, orgId, x.animal_id, b.mother_id, false);
      }
    }
    await repo.updateLitter(q, orgId, id, { ...b, ...(b.notes === '' ? { notes: null } : {}) });
    await auditChanges(q, orgId, actor, 'care_litter', id, l, await repo.getLitter(q, orgId, id));
    return litter(q, orgId, id);
  });
}

export async function deleteLitter(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.getLitter(q, orgId, id, true))) throw notFound('litter');
    await repo.deleteLitter(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'care_litter', id);
  });
}

export async function addLitterMember(db: Db, orgId: string, id: string, animalId: string, actor: string): Promise<LitterT> {
  return db.tx(async (q) => {
    const l = await repo.getLitter(q, orgId, id, true);
    if (!l) throw notFound('litter');
    await addMember(q, orgId, l, animalId, 'animal_id');
    await audit(q, orgId, actor, 'add_member', 'care_litter', id, { animal_id: animalId });
    return litter(q, orgId, id);
  });
}

export async function removeLitterMember(db: Db, orgId: string, id: string, animalId: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.getLitter(q, orgId, id, true))) throw notFound('litter');
    if (!(await repo.removeMember(q, orgId, id, animalId))) throw notFound('litter member');
    await audit(q, orgId, actor, 'remove_member', 'care_litter', id, { animal_id: animalId });
  });
}

export interface BondWarning {
  code: string;
  message: string;
}
/**
 * A warning for each bonded partner of `animalIds` that is neither among them nor among `companions`
 * (the animals staying together with them): the change splits a bonded pair. It never refuses anything.
 */
export async function bondedWarnings(q: Queryable, orgId: string, animalIds: string[], companions: string[] = []): Promise<BondWarning[]> {
  if (!animalIds.length) return [];
  const together = new Set([...animalIds, ...companions]);
  const split = (await repo.bondPartners(q, orgId, animalIds)).filter((p) => !together.has(p.partner_id));
  if (!split.length) return [];
  const names = new Map(
    (
      await repo.refs(
        q,
        orgId,
        split.flatMap((p) => [p.animal_id, p.partner_id]),
      )
    ).map((r) => [r.id, r.name]),
  );
  // A partner no longer on file (deleted) is no bond to split.
  return split
    .filter((p) => names.has(p.partner_id))
    .map((p) => ({
      code: 'bonded_pair_split',
      message:
        `${names.get(p.animal_id) ?? p.animal_id} (${p.animal_id}) is bonded with ` +
        `${names.get(p.partner_id) ?? p.partner_id} (${p.partner_id}), who is not going along`,
    }));
}
