import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { auditUpdate } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import * as repo from './repository.ts';
import { normalizeMicrochip } from './microchips.facts.ts';
import { use } from '../../platform/hooks.ts';
import { animalPhotos, animalPlaces } from './hooks.ts';
import { animalWritten } from './hooks.ts';
import { statusMap } from './statuses.repository.ts';
import { lockAnimal } from './microchips.service.ts';
import { todayIn } from './weights.service.ts';
import type { AnimalCardQueryT, AnimalCardT, AnimalDetailsPatchT } from './details.schemas.ts';

interface CardRow {
  id: string;
  name: string;
  public_name: string;
  species: string;
  breed: string | null;
  sex: string;
  colour: string | null;
  status_id: string;
  location_id: string | null;
  location_name: string | null;
  date_of_birth: string | null;
  intake_date: string;
  microchip_number: string | null;
  is_public: boolean;
  public_description: string | null;
  photo_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A card's columns: the place's name and first photo from the modules that keep them (asked once, at first use). */
let cardColumns: string | null = null;
const CARD_COLUMNS = () =>
  (cardColumns ??= `a.id, a.name, a.public_name, a.species, a.breed, a.sex, a.colour, a.status_id, a.location_id,
  ${placeNameSql('a.organization_id', 'a.location_id')} AS location_name, a.date_of_birth, a.intake_date, a.microchip_number,
  a.is_public, a.public_description, ${firstPhotoSql('a.organization_id', 'a.id')} AS photo_id, a.created_at, a.updated_at`);
const placeNameSql = (org: string, place: string) => use(animalPlaces).nameSql(org, place);
const firstPhotoSql = (org: string, id: string) => use(animalPhotos).firstPhotoSql(org, id);
const photoPath = (animalId: string, photoId: string, size: 'small' | 'medium') => use(animalPhotos).photoPath(animalId, photoId, size);

async function toCards(q: Queryable, orgId: string, rows: CardRow[]): Promise<AnimalCardT[]> {
  let byId = await statusMap(q, orgId);
  const unseen = rows.find((r) => !byId.has(r.status_id));
  if (unseen) byId = await statusMap(q, orgId, unseen.status_id);
  return rows.map((r) => {
    const s = byId.get(r.status_id);
    return {
      id: r.id,
      name: r.name,
      public_name: r.public_name,
      species: r.species,
      breed: r.breed,
      sex: r.sex as AnimalCardT['sex'],
      colour: r.colour,
      status: s?.name ?? '',
      care_state: s?.care_state ?? 'in_care',
      location_id: r.location_id,
      location_name: r.location_name,
      date_of_birth: r.date_of_birth,
      intake_date: r.intake_date,
      microchip_number: r.microchip_number,
      is_public: r.is_public,
      public_description: r.public_description,
      photo_url: r.photo_id ? photoPath(r.id, r.photo_id, 'small') : null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  });
}

/**
 * One page of the staff list, newest first, through the Family A list's own query (status names and care states
 * narrow to status ids from the cached statuses; the total from the tallies, or counted when words or a chip are
 * given), then the page's place names, colours and photos in one more read.
 */
export async function listCards(q: Queryable, orgId: string, f: AnimalCardQueryT) {
  const statuses = [...(await statusMap(q, orgId)).values()];
  if (f.status) {
    const unknown = [...new Set(f.status)].filter((n) => !statuses.some((s) => s.name === n));
    if (unknown.length) throw invalid({ status: unknown.map((n) => `${n} is not a configured animal status`) });
  }
  const empty = { results: [], limit: f.limit, offset: f.offset, has_more: false, total: 0 };
  let statusIds: string[] | undefined;
  if (f.status || f.care_state) {
    statusIds = statuses
      .filter((s) => (!f.status || f.status.includes(s.name)) && (!f.care_state || f.care_state.includes(s.care_state)))
      .map((s) => s.id);
    if (!statusIds.length) return empty;
  }
  const names = (f.q ?? '').split(/\s+/).filter(Boolean);
  const { rows, total } = await repo.listAnimals(
    q,
    orgId,
    {
      statusIds,
      species: f.species,
      locationId: f.location_id,
      microchip: f.microchip_number === undefined ? undefined : normalizeMicrochip(f.microchip_number),
      names: names.length ? names : undefined,
    },
    f.limit,
    f.offset,
  );
  const more = rows.length
    ? await q.query<Pick<CardRow, 'id' | 'colour' | 'location_name' | 'photo_id' | 'public_description'>>(
        `SELECT a.id, a.colour, a.public_description, ${placeNameSql('a.organization_id', 'a.location_id')} AS location_name,
           ${firstPhotoSql('a.organization_id', 'a.id')} AS photo_id
           FROM animals a WHERE a.organization_id = $1 AND a.id = ANY($2::text[])`,
        [orgId, rows.map((r) => r.id)],
      )
    : [];
  const byId = new Map(more.map((m) => [m.id, m]));
  const cards = await toCards(
    q,
    orgId,
    rows.map((r) => ({
      ...r,
      colour: byId.get(r.id)?.colour ?? null,
      public_description: byId.get(r.id)?.public_description ?? null,
      location_name: byId.get(r.id)?.location_name ?? null,
      photo_id: byId.get(r.id)?.photo_id ?? null,
    })),
  );
  return { results: cards, limit: f.limit, offset: f.offset, has_more: f.offset + rows.length < total, total };
}

export async function getCard(q: Queryable, orgId: string, id: string): Promise<AnimalCardT> {
  const rows = await q.query<CardRow>(
    `SELECT ${CARD_COLUMNS()} FROM animals a WHERE a.organization_id = $1 AND a.id = $2 AND a.deleted_at IS NULL`,
    [orgId, id],
  );
  const row = rows[0];
  if (!row) throw notFound('animal');
  return (await toCards(q, orgId, [row]))[0] as AnimalCardT;
}

interface DetailsRow {
  species: string;
  sex: string;
  intake_date: string;
  breed: string | null;
  colour: string | null;
  public_description: string | null;
}
const blank = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/**
 * The facts Family A's update leaves out (species, sex, intake date) and the breed, colour and public description texts: the row locked,
 * the audit row with each changed field's before and after, the change for the feed and the other modules' write
 * hooks, in one transaction.
 */
export async function patchDetails(db: Db, orgId: string, id: string, body: AnimalDetailsPatchT, actor: string, timeZone: string) {
  const patch: Partial<DetailsRow> = {};
  if (body.species !== undefined) {
    if (body.species.trim() === '') throw invalid({ species: ['must not be blank'] });
    patch.species = body.species.trim();
  }
  if (body.sex !== undefined) patch.sex = body.sex;
  if (body.intake_date !== undefined) {
    if (body.intake_date > todayIn(timeZone)) throw invalid({ intake_date: ['must not be after today'] });
    patch.intake_date = body.intake_date;
  }
  const breed = blank(body.breed);
  if (breed !== undefined) patch.breed = breed;
  const colour = blank(body.colour);
  if (colour !== undefined) patch.colour = colour;
  const description = blank(body.public_description);
  if (description !== undefined) patch.public_description = description;
  await db.tx(async (q) => {
    await lockAnimal(q, orgId, id);
    const [before] = await q.query<DetailsRow>(
      "SELECT species, sex, to_char(intake_date, 'YYYY-MM-DD') AS intake_date, breed, colour, public_description FROM animals " +
        'WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    if (!before) throw notFound('animal');
    const fields = Object.keys(patch) as (keyof DetailsRow)[];
    if (!fields.length) return;
    const sets = fields.map((f, i) => `${f} = $${i + 3}`).join(', ');
    await q.query(`UPDATE animals SET ${sets}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [
      orgId,
      id,
      ...fields.map((f) => patch[f]),
    ]);
    const after = { ...before, ...patch };
    await auditUpdate(q, orgId, actor, 'animal', id, before, after, fields);
    await recordChange(q, orgId, { event: 'animal.updated', entity: 'animal', id, fields: patch, actor });
    await animalWritten(q, orgId, id, fields);
  });
  return getCard(db, orgId, id);
}

/** Sets a new animal's colour inside the create's transaction (the Family A create has no colour). */
export async function setColourIn(q: Queryable, orgId: string, id: string, colour: string | null): Promise<void> {
  if (colour === null) return;
  await q.query('UPDATE animals SET colour = $3 WHERE organization_id = $1 AND id = $2', [orgId, id, colour]);
}
