import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { checkCustomFields } from '../customfields/public.ts';
import { checkAnimalLocation } from '../operations/public.ts';
import * as repo from './repository.ts';
import { animalCreated, animalWritten } from './hooks.ts';
import { statusMap, statusesByNames } from './statuses.repository.ts';
import type { AnimalA, AnimalCreateBody, AnimalListQueryT, AnimalUpdateBody } from './schemas.ts';
import { normalizeMicrochip } from './microchips.facts.ts';
import { lockAnimal, setPrimaryChipNumber } from './microchips.service.ts';
import { recordFamilyAWeight } from './weights.service.ts';

export { normalizeMicrochip };

/** A sent chip number normalized for storage; one that normalizes to nothing is refused like "". */
function storedMicrochip(chip: string): string {
  const n = normalizeMicrochip(chip);
  if (n === '') throw invalid({ microchipNumber: ['must contain at least one letter or digit'] });
  return n;
}

export function toAnimalA(r: repo.AnimalRow): AnimalA {
  return toAnimalWire(r, r.status, r.care_state);
}

function toAnimalWire(r: Omit<repo.AnimalRow, 'status' | 'care_state'>, status: string, careState: string): AnimalA {
  return {
    id: r.id,
    name: r.name,
    publicName: r.public_name,
    species: r.species,
    breed: r.breed,
    status,
    careState: careState as AnimalA['careState'],
    locationId: r.location_id,
    intakeDate: r.intake_date,
    dateOfBirth: r.date_of_birth,
    sex: r.sex as AnimalA['sex'],
    weight: r.weight === null ? null : Number(r.weight),
    microchipNumber: r.microchip_number,
    isPublic: r.is_public,
    notes: r.notes,
    customFields: r.custom_fields,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

async function statusId(q: Queryable, orgId: string, name: string, field = 'status'): Promise<string> {
  // The cached statuses answer without a round trip; a name they lack is looked up (it may be new).
  for (const s of (await statusMap(q, orgId)).values()) if (s.name === name) return s.id;
  const rows = await statusesByNames(q, orgId, [name]);
  const row = rows[0];
  if (!row) throw invalid({ [field]: [`${name} is not a configured animal status (see GET /api/animals/statuses)`] });
  return row.id;
}

/**
 * Rule checks cheap enough to run on a request whose schema already failed, so that one 422
 * names every problem: an unknown status (in the body, or among `status` query values).
 */
export async function statusProblems(db: Queryable, orgId: string, statuses: unknown): Promise<Record<string, string[]>> {
  const names = (Array.isArray(statuses) ? statuses : [statuses]).filter(
    (n): n is string => typeof n === 'string' && n.length > 0 && n.length <= 100,
  );
  if (!names.length) return {};
  const known = new Set((await statusesByNames(db, orgId, names)).map((r) => r.name));
  const unknown = [...new Set(names)].filter((n) => !known.has(n));
  return unknown.length ? { status: unknown.map((n) => `${n} is not a configured animal status (see GET /api/animals/statuses)`) } : {};
}

export async function getAnimal(db: Queryable, orgId: string, id: string): Promise<repo.AnimalRow> {
  const row = await repo.getAnimal(db, orgId, id);
  if (!row) throw notFound('animal');
  return row;
}

/** The read path: one indexed row, status name and care state from the cached statuses, straight to the wire shape. */
export async function readAnimalA(db: Queryable, orgId: string, id: string): Promise<AnimalA> {
  const row = await repo.getAnimalBare(db, orgId, id);
  if (!row) throw notFound('animal');
  const status = (await statusMap(db, orgId, row.status_id)).get(row.status_id);
  return toAnimalWire(row, status?.name ?? '', status?.care_state ?? 'in_care');
}

export async function listAnimalsA(db: Queryable, orgId: string, query: AnimalListQueryT): Promise<{ data: AnimalA[]; total: number }> {
  // Status names and care state both narrow to a set of status ids, so the count and the page
  // read one index of animals without joining statuses.
  const statuses = [...(await statusMap(db, orgId)).values()];
  if (query.status) {
    const unknown = [...new Set(query.status)].filter((n) => !statuses.some((s) => s.name === n));
    if (unknown.length) throw invalid({ status: unknown.map((n) => `${n} is not a configured animal status`) });
  }
  let statusIds: string[] | undefined;
  if (query.status || query.careState) {
    statusIds = statuses
      .filter((s) => (!query.status || query.status.includes(s.name)) && (!query.careState || s.care_state === query.careState))
      .map((s) => s.id);
    if (statusIds.length === 0) return { data: [], total: 0 };
  }
  const { page, perPage } = query;
  const { rows, total } = await repo.listAnimals(
    db,
    orgId,
    {
      statusIds,
      species: query.species,
      locationId: query.locationId,
      isPublic: query.isPublic,
      microchip: query.microchipNumber === undefined ? undefined : normalizeMicrochip(query.microchipNumber),
    },
    perPage,
    (page - 1) * perPage,
  );
  let byId = await statusMap(db, orgId);
  const unseen = rows.find((r) => !byId.has(r.status_id));
  if (unseen) byId = await statusMap(db, orgId, unseen.status_id);
  const data = rows.map((r): AnimalA => {
    const s = byId.get(r.status_id);
    return toAnimalWire(r, s?.name ?? '', s?.care_state ?? 'in_care');
  });
  return { total, data };
}

/** A change's fields: what was written, without the notes (free text stays in Ark). */
function changedFields(values: object): Record<string, unknown> {
  const { notes: _notes, ...rest } = values as Record<string, unknown>;
  return rest;
}

/**
 * The checks read what they need; the animal, its audit row and the returned row are then one
 * statement, in a transaction with what other modules do on every animal write (onAnimalWritten).
 */
export async function createAnimal(
  db: Db,
  orgId: string,
  body: AnimalCreateBody,
  actor: string,
  timeZone = 'UTC',
): Promise<repo.AnimalRow> {
  const id = newId('ani');
  const custom = await checkCustomFields(db, orgId, 'animal', body.customFields, { creating: true });
  if (body.locationId) await checkAnimalLocation(db, orgId, body.locationId, null);
  const chip = body.microchipNumber ? storedMicrochip(body.microchipNumber) : null;
  // Read before the transaction opens: inside one, a second pool client could wait on a full pool.
  const status = await statusId(db, orgId, body.status);
  const values: repo.AnimalInsert = {
    id,
    name: body.name,
    public_name: body.publicName ?? body.name,
    species: body.species,
    breed: body.breed ?? null,
    status_id: status,
    location_id: body.locationId ?? null,
    intake_date: body.intakeDate,
    date_of_birth: body.dateOfBirth ?? null,
    sex: body.sex ?? 'unknown',
    weight: body.weight ?? null,
    microchip_number: chip,
    is_public: body.isPublic ?? false,
    notes: body.notes === '' ? null : (body.notes ?? null),
    custom_fields: custom,
  };
  return db.tx(async (q) => {
    const row = await repo.insertAnimal(q, orgId, values, actor);
    await recordChange(q, orgId, { event: 'animal.created', entity: 'animal', id, fields: changedFields(values), actor });
    // A chip or a weight is also a row of the animal's chips or weight history.
    if (chip !== null) await setPrimaryChipNumber(q, orgId, id, chip);
    if (body.weight) await recordFamilyAWeight(q, orgId, id, body.weight, actor, timeZone);
    // Modules that keep records from the animal's first day (its first stay) add them in the same transaction.
    await animalCreated(q, orgId, { id: row.id, intake_date: row.intake_date }, actor);
    await animalWritten(q, orgId, row.id, ['created', ...(chip !== null ? ['microchip_number'] : [])]);
    return row;
  });
}

/**
 * One transaction: the current row when the change needs it (location, custom fields), one statement
 * that updates, audits and returns the row, then what other modules do on every animal write.
 */
export async function updateAnimal(
  db: Db,
  orgId: string,
  id: string,
  body: AnimalUpdateBody,
  actor: string,
  timeZone = 'UTC',
): Promise<repo.AnimalRow> {
  // A chip or a weight also changes the animal's chips or weight history: one transaction, the animal's row locked.
  const records = body.microchipNumber !== undefined || (body.weight !== undefined && body.weight !== null && body.weight > 0);
  const run = async (q: Queryable) => {
    if (records) await lockAnimal(q, orgId, id);
    const current = body.locationId !== undefined || body.customFields !== undefined ? await getAnimal(q, orgId, id) : null;
    const patch: repo.AnimalPatch = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.publicName !== undefined) patch.public_name = body.publicName;
    if (body.status !== undefined) patch.status_id = await statusId(q, orgId, body.status);
    // Locked first, so the status it had is the one this write replaces (animal.status_changed).
    if (patch.status_id !== undefined && !records) await lockAnimal(q, orgId, id);
    const before = patch.status_id !== undefined ? await repo.getAnimalBare(q, orgId, id) : null;
    if (current && body.locationId !== undefined && body.locationId !== current.location_id) {
      await checkAnimalLocation(q, orgId, body.locationId, id);
      patch.location_id = body.locationId;
    }
    if (body.dateOfBirth !== undefined) patch.date_of_birth = body.dateOfBirth;
    if (body.weight !== undefined) patch.weight = body.weight;
    if (body.microchipNumber !== undefined)
      patch.microchip_number = await setPrimaryChipNumber(
        q,
        orgId,
        id,
        body.microchipNumber === null ? null : storedMicrochip(body.microchipNumber),
      );
    if (body.weight !== undefined && body.weight !== null && body.weight > 0)
      await recordFamilyAWeight(q, orgId, id, body.weight, actor, timeZone);
    if (body.isPublic !== undefined) patch.is_public = body.isPublic;
    if (body.notes !== undefined) patch.notes = body.notes === '' ? null : body.notes;
    if (current && body.customFields !== undefined) {
      patch.custom_fields = await checkCustomFields(
        q,
        orgId,
        'animal',
        { ...current.custom_fields, ...body.customFields },
        { creating: false, current: current.custom_fields },
      );
    }
    const row = await repo.updateAnimal(q, orgId, id, patch, actor, Object.keys(body));
    if (!row) throw notFound('animal');
    await recordChange(q, orgId, { event: 'animal.updated', entity: 'animal', id, fields: changedFields(patch), actor });
    if (before && before.status_id !== row.status_id)
      await recordChange(q, orgId, {
        event: 'animal.status_changed',
        entity: 'animal',
        id,
        fields: { status: row.status, status_id: row.status_id },
        actor,
      });
    await animalWritten(q, orgId, id, Object.keys(patch));
    return row;
  };
  return db.tx(run);
}

export async function deleteAnimal(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.softDeleteAnimal(q, orgId, id))) throw notFound('animal');
    await audit(q, orgId, actor, 'delete', 'animal', id);
    await recordChange(q, orgId, { event: 'animal.deleted', entity: 'animal', id, actor });
    await animalWritten(q, orgId, id);
  });
}
