import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { kx } from '../../platform/db/kysely.ts';
import { chipFacts, normalizeMicrochip } from './microchips.facts.ts';
import * as repo from './microchips.repository.ts';
import { animalLive } from './repository.ts';
import type { MicrochipCreateT, MicrochipT, MicrochipUpdateT } from './records.schemas.ts';
import { animalWritten } from './hooks.ts';

/** Locks a live animal's row for the change of its chips or weights; 404 when there is none. */
export async function lockAnimal(q: Queryable, orgId: string, animalId: string): Promise<void> {
  const row = await liveAnimal(q, orgId, animalId).select('id').forUpdate().executeTakeFirst();
  if (!row) throw notFound('animal');
}

/** The organization's live animal `animalId`, as a select to read columns of. */
export const liveAnimal = (q: Queryable, orgId: string, animalId: string) =>
  kx(q).selectFrom('animals').where('organization_id', '=', orgId).where('id', '=', animalId).where('deleted_at', 'is', null);

/** 404 unless `animalId` names a live animal of the organization. */
export async function mustExist(q: Queryable, orgId: string, animalId: string): Promise<void> {
  if (!(await animalLive(q, orgId, animalId))) throw notFound('animal');
}

function chipNumber(raw: string, field: string): string {
  const n = normalizeMicrochip(raw);
  if (n === '') throw invalid({ [field]: ['must contain at least one letter or digit'] });
  return n;
}

export function toMicrochip(r: repo.ChipRow, extra: MicrochipT['warnings'] = []): MicrochipT {
  const f = chipFacts(r.number);
  return { ...r, ...f, warnings: [...f.warnings, ...extra] };
}

async function duplicateWarnings(q: Queryable, orgId: string, animalId: string, number: string): Promise<MicrochipT['warnings']> {
  const others = await repo.otherAnimalsWithChip(q, orgId, animalId, number);
  return others.length ? [{ code: 'chip_on_other_animal', message: `another animal also carries this chip: ${others.join(', ')}` }] : [];
}

export async function listChips(q: Queryable, orgId: string, animalId: string, limit: number, offset: number): Promise<MicrochipT[]> {
  await mustExist(q, orgId, animalId);
  return (await repo.listChips(q, orgId, animalId, limit + 1, offset)).map((r) => toMicrochip(r));
}

export async function addChip(db: Db, orgId: string, animalId: string, b: MicrochipCreateT, actor: string): Promise<MicrochipT> {
  const number = chipNumber(b.number, 'number');
  return db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    if (await repo.chipByNumber(q, orgId, animalId, number)) throw invalid({ number: ['this animal already has this chip'] });
    const hasPrimary = (await repo.primaryChip(q, orgId, animalId)) !== null;
    const primary = b.is_primary ?? !hasPrimary;
    if (primary) await repo.clearPrimary(q, orgId, animalId);
    const id = newId('chp');
    await repo.insertChip(q, orgId, {
      id,
      animal_id: animalId,
      number,
      implanted_on: b.implanted_on ?? null,
      registry: b.registry || null,
      is_primary: primary,
    });
    if (primary) await repo.syncAnimalChip(q, orgId, animalId);
    await audit(q, orgId, actor, 'create', 'animal_microchip', id, { animal_id: animalId, number, is_primary: primary });
    await animalWritten(q, orgId, animalId);
    const row = await repo.getChip(q, orgId, animalId, id);
    if (!row) throw notFound('microchip');
    return toMicrochip(row, await duplicateWarnings(q, orgId, animalId, number));
  });
}

export async function updateChip(
  db: Db,
  orgId: string,
  animalId: string,
  id: string,
  b: MicrochipUpdateT,
  actor: string,
): Promise<MicrochipT> {
  return db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const current = await repo.getChip(q, orgId, animalId, id);
    if (!current) throw notFound('microchip');
    if (b.is_primary && !current.is_primary) await repo.clearPrimary(q, orgId, animalId);
    await repo.updateChip(q, orgId, id, {
      ...(b.implanted_on !== undefined ? { implanted_on: b.implanted_on } : {}),
      ...(b.registry !== undefined ? { registry: b.registry || null } : {}),
      ...(b.is_primary ? { is_primary: true } : {}),
    });
    if (b.is_primary && !current.is_primary) await repo.syncAnimalChip(q, orgId, animalId);
    await audit(q, orgId, actor, 'update', 'animal_microchip', id, b);
    await animalWritten(q, orgId, animalId);
    const row = await repo.getChip(q, orgId, animalId, id);
    if (!row) throw notFound('microchip');
    return toMicrochip(row);
  });
}

/** Removing the primary chip makes the oldest remaining chip primary (and the animal's microchipNumber). */
export async function removeChip(db: Db, orgId: string, animalId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    await lockAnimal(q, orgId, animalId);
    const current = await repo.getChip(q, orgId, animalId, id);
    if (!current) throw notFound('microchip');
    await repo.deleteChip(q, orgId, id);
    if (current.is_primary) {
      await repo.promoteOldest(q, orgId, animalId);
      await repo.syncAnimalChip(q, orgId, animalId);
    }
    await audit(q, orgId, actor, 'delete', 'animal_microchip', id, { animal_id: animalId, number: current.number });
    await animalWritten(q, orgId, animalId);
  });
}

/**
 * Family A's microchipNumber is the primary chip. Inside the caller's transaction (the animal's row is
 * locked or just inserted): a number the animal already carries becomes primary; otherwise the primary
 * chip's number is replaced (implant date and registry kept), or a primary chip is added. Null removes
 * the primary chip, and the oldest remaining chip (if any) becomes primary. Returns the primary number.
 */
export async function setPrimaryChipNumber(q: Queryable, orgId: string, animalId: string, number: string | null): Promise<string | null> {
  const primary = await repo.primaryChip(q, orgId, animalId);
  if (number === null) {
    if (primary) {
      await repo.deleteChip(q, orgId, primary.id);
      await repo.promoteOldest(q, orgId, animalId);
    }
  } else if (primary?.number !== number) {
    const existing = await repo.chipByNumber(q, orgId, animalId, number);
    if (existing) {
      await repo.clearPrimary(q, orgId, animalId);
      await repo.updateChip(q, orgId, existing.id, { is_primary: true });
    } else if (primary) await repo.updateChip(q, orgId, primary.id, { number });
    else
      await repo.insertChip(q, orgId, {
        id: newId('chp'),
        animal_id: animalId,
        number,
        implanted_on: null,
        registry: null,
        is_primary: true,
      });
  }
  return (await repo.primaryChip(q, orgId, animalId))?.number ?? null;
}
