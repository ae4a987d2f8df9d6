import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { changeCteSql, recordChange, type Change } from '../../platform/changes.ts';
import { checkCustomFields } from '../customfields/public.ts';
import * as repo from './repository.ts';
import { animalPlaces, animalWritten, createdWork, runAfter, writtenWork } from './hooks.ts';
import { use } from '../../platform/hooks.ts';

const checkAnimalLocation = (q: Queryable, orgId: string, locationId: string | null, animalId: string | null) =>
  use(animalPlaces).check(q, orgId, locationId, animalId);
import { statusMap, statusesByNames } from './statuses.repository.ts';
import type { AnimalA, AnimalCreateBody, AnimalListQueryT, AnimalUpdateBody } from './schemas.ts';
import { normalizeMicrochip } from './microchips.facts.ts';
import { lockAnimal, setPrimaryChipNumber } from './microchips.service.ts';
import { familyAWeightCte, todayIn } from './weights.service.ts';

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

/** The Family A write's own extra rows, in its statement: the change for the feed and, given pounds, a weight row. */
function familyAWrites(c: Omit<Change, 'id'>, pounds: number | null, actor: string, timeZone: string): repo.AlsoWrite[] {
  return [{ body: changeCteSql(c, 'w') }, { body: familyAWeightCte('w', pounds, actor, todayIn(timeZone)) }];
}

/**
 * The checks read what they need (custom field definitions and statuses come from the caches); the animal, its
 * audit row, its change for the feed, its weight row, what other modules write for every animal create (its first
 * stay, animalCreatedHook) and write (animalWrittenHook), and the returned row are then one statement. Only when a
 * hook has more to do than rows of that statement (`after`), or a chip is given, does the create open a transaction
 * around the statement and that work.
 */
/** A create's checked row, its chip and its own extra writes (the change for the feed, a weight row). */
async function prepareCreate(q: Queryable, orgId: string, body: AnimalCreateBody, actor: string, timeZone: string) {
  const id = newId('ani');
  const custom = await checkCustomFields(q, orgId, 'animal', body.customFields, { creating: true });
  if (body.locationId) await checkAnimalLocation(q, orgId, body.locationId, null);
  const chip = body.microchipNumber ? storedMicrochip(body.microchipNumber) : null;
  const status = await statusId(q, orgId, body.status);
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
  // A weight is also a row of the animal's weight history (a chip, of its chips).
  const also = familyAWrites(
    { event: 'animal.created', entity: 'animal', fields: changedFields(values), actor },
    body.weight ? body.weight : null,
    actor,
    timeZone,
  );
  return { id, values, chip, also };
}

/**
 * A create inside the caller's transaction whose first stay the caller records itself (the stays module's intake
 * route): the same checks, row, audit row, change, chip and write hooks as createAnimal, without the created hooks.
 */
export async function createAnimalIn(
  q: Queryable,
  orgId: string,
  body: AnimalCreateBody,
  actor: string,
  timeZone = 'UTC',
): Promise<repo.AnimalRow> {
  const { id, values, chip, also } = await prepareCreate(q, orgId, body, actor, timeZone);
  const work = await writtenWork(q, orgId, id, ['created', ...(chip !== null ? ['microchip_number'] : [])]);
  const row = await repo.insertAnimal(q, orgId, values, actor, [...also, ...work.parts]);
  if (chip !== null) await setPrimaryChipNumber(q, orgId, id, chip);
  await runAfter(q, work);
  return row;
}

/** One animal of a bulk create: its checked body and, optionally, its colour (the details card's field). */
export interface AnimalBulkItem {
  body: AnimalCreateBody;
  colour?: string | null;
}
/** What a bulk create did with one item: the new animal's id, or why it was refused (nothing written for it). */
export type AnimalBulkResult = { id: string } | { error: unknown };

/**
 * Many creates inside the caller's transaction, as createAnimalIn makes each (no created hooks: the caller records the
 * first stays): every item is checked and prepared first, an item the checks refuse is answered with its error and left
 * out, and the others are written by ONE statement (animals with their colours, audit rows, changes for the feed,
 * weight rows and primary chips: repository insertAnimals). The write hooks are asked for each animal as for a create;
 * their parts (none for a create today) then run over each animal's row, and their `after` work once the statement ran.
 * The results come in the order of the items.
 */
export async function createAnimalsIn(
  q: Queryable,
  orgId: string,
  items: readonly AnimalBulkItem[],
  actor: string,
  timeZone = 'UTC',
): Promise<AnimalBulkResult[]> {
  const results: AnimalBulkResult[] = [];
  const rows: repo.AnimalBulkRow[] = [];
  const works: { id: string; work: Awaited<ReturnType<typeof writtenWork>> }[] = [];
  for (const item of items) {
    try {
      const { id, values, chip } = await prepareCreate(q, orgId, item.body, actor, timeZone);
      const work = await writtenWork(q, orgId, id, ['created', ...(chip !== null ? ['microchip_number'] : [])]);
      rows.push({
        ...values,
        colour: item.colour ?? null,
        change_fields: changedFields(values),
        pounds: item.body.weight ? item.body.weight : null,
        weight_id: newId('wgt'),
        chip_id: newId('chp'),
      });
      works.push({ id, work });
      results.push({ id });
    } catch (error) {
      results.push({ error });
    }
  }
  await repo.insertAnimals(q, orgId, rows, actor, todayIn(timeZone));
  for (const { id, work } of works) {
    await repo.runParts(q, orgId, id, work.parts);
    await runAfter(q, work);
  }
  return results;
}

export async function createAnimal(
  db: Db,
  orgId: string,
  body: AnimalCreateBody,
  actor: string,
  timeZone = 'UTC',
): Promise<repo.AnimalRow> {
  // Read before the transaction opens: inside one, a second pool client could wait on a full pool.
  const { id, values, chip, also } = await prepareCreate(db, orgId, body, actor, timeZone);
  const created = { id, intake_date: values.intake_date, species: values.species, date_of_birth: values.date_of_birth };
  const work = await createdWork(db, orgId, created, actor);
  await writtenWork(db, orgId, id, ['created', ...(chip !== null ? ['microchip_number'] : [])], work);
  const write = (q: Queryable) => repo.insertAnimal(q, orgId, values, actor, [...also, ...work.parts]);
  if (chip === null && work.after.length === 0) return write(db);
  return db.tx(async (q) => {
    const row = await write(q);
    if (chip !== null) await setPrimaryChipNumber(q, orgId, id, chip);
    await runAfter(q, work);
    return row;
  });
}

/**
 * A change of the animal's own columns: one statement updates it, audits it, records the change for the feed (and
 * a weight row), writes what other modules write for every animal write (animalWrittenHook: the registry's "last seen"
 * day) and returns the row. A chip, status, location or custom field change first locks or reads the row (once), in a
 * transaction, and so does a change for which a hook has more to do than rows of the statement (`after`).
 */
export async function updateAnimal(
  db: Db,
  orgId: string,
  id: string,
  body: AnimalUpdateBody,
  actor: string,
  timeZone = 'UTC',
): Promise<repo.AnimalRow> {
  // A chip also changes the animal's chips, and a status change records the status it replaces: both lock the row first.
  const lock = body.microchipNumber !== undefined || body.status !== undefined;
  const readsRow = body.locationId !== undefined || body.customFields !== undefined || body.status !== undefined;
  const pounds = body.weight !== undefined && body.weight !== null && body.weight > 0 ? body.weight : null;
  const patch: repo.AnimalPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.publicName !== undefined) patch.public_name = body.publicName;
  if (body.dateOfBirth !== undefined) patch.date_of_birth = body.dateOfBirth;
  if (body.weight !== undefined) patch.weight = body.weight;
  if (body.isPublic !== undefined) patch.is_public = body.isPublic;
  if (body.notes !== undefined) patch.notes = body.notes === '' ? null : body.notes;
  const write = async (q: Queryable, parts: repo.AlsoWrite[]) => {
    const row = await repo.updateAnimal(q, orgId, id, patch, actor, Object.keys(body), [
      ...familyAWrites({ event: 'animal.updated', entity: 'animal', fields: changedFields(patch), actor }, pounds, actor, timeZone),
      ...parts,
    ]);
    if (!row) throw notFound('animal');
    return row;
  };
  if (!lock && !readsRow) {
    const work = await writtenWork(db, orgId, id, Object.keys(patch));
    if (work.after.length === 0) return write(db, work.parts);
    return db.tx(async (q) => {
      const row = await write(q, work.parts);
      await runAfter(q, work);
      return row;
    });
  }
  return db.tx(async (q) => {
    if (lock) await lockAnimal(q, orgId, id);
    // One read gives the location and custom fields a change starts from and the status it replaces.
    const before = readsRow ? await repo.getAnimalBare(q, orgId, id) : null;
    if (readsRow && !before) throw notFound('animal');
    if (body.status !== undefined) patch.status_id = await statusId(q, orgId, body.status);
    if (before && body.locationId !== undefined && body.locationId !== before.location_id) {
      await checkAnimalLocation(q, orgId, body.locationId, id);
      patch.location_id = body.locationId;
    }
    if (body.microchipNumber !== undefined)
      patch.microchip_number = await setPrimaryChipNumber(
        q,
        orgId,
        id,
        body.microchipNumber === null ? null : storedMicrochip(body.microchipNumber),
      );
    if (before && body.customFields !== undefined) {
      patch.custom_fields = await checkCustomFields(
        q,
        orgId,
        'animal',
        { ...before.custom_fields, ...body.customFields },
        { creating: false, current: before.custom_fields },
      );
    }
    const work = await writtenWork(q, orgId, id, Object.keys(patch));
    const row = await write(q, work.parts);
    if (before && patch.status_id !== undefined && before.status_id !== row.status_id)
      await recordChange(q, orgId, {
        event: 'animal.status_changed',
        entity: 'animal',
        id,
        fields: { status: row.status, status_id: row.status_id },
        actor,
      });
    await runAfter(q, work);
    return row;
  });
}

export async function deleteAnimal(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.softDeleteAnimal(q, orgId, id))) throw notFound('animal');
    await audit(q, orgId, actor, 'delete', 'animal', id);
    await recordChange(q, orgId, { event: 'animal.deleted', entity: 'animal', id, actor });
    await animalWritten(q, orgId, id);
  });
}
