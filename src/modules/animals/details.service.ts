import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { auditUpdate } from '../../platform/audit.ts';
import { compiler, kx, sql, statement, type DB, type Selectable } from '../../platform/db/kysely.ts';
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

/**
 * A card's row: the animal's columns, its place's name and first photo from the modules that keep them (the list's
 * timestamps come as ISO text, the one card's as dates).
 */
type CardRow = Omit<Pick<Selectable<DB['animals']>, CardColumn>, 'created_at' | 'updated_at'> & {
  created_at: Date | string;
  updated_at: Date | string;
  location_name: string | null;
  photo_id: string | null;
};
type CardColumn =
  | 'id'
  | 'name'
  | 'public_name'
  | 'species'
  | 'breed'
  | 'sex'
  | 'colour'
  | 'status_id'
  | 'location_id'
  | 'date_of_birth'
  | 'intake_date'
  | 'microchip_number'
  | 'is_public'
  | 'public_description'
  | 'created_at'
  | 'updated_at';

/** The place's name and first photo of the animal `a` (SQL the owners give, from code), as columns. */
const placeName = () => sql<string | null>`${sql.raw(placeNameSql('a.organization_id', 'a.location_id'))}`.as('location_name');
const firstPhoto = () => sql<string | null>`${sql.raw(firstPhotoSql('a.organization_id', 'a.id'))}`.as('photo_id');
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

/** What a page's cards add to the list's rows: colour, description, place name and first photo, read once per page. */
const cardExtras = statement('animal_card_extras', (v: { orgId: string; ids: string[] }) =>
  compiler
    .selectFrom('animals as a')
    .select(['a.id', 'a.colour', 'a.public_description', placeName(), firstPhoto()])
    .where('a.organization_id', '=', v.orgId)
    .where('a.id', '=', sql<string>`ANY(${v.ids}::text[])`),
);

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
  const more = rows.length ? await cardExtras(q, { orgId, ids: rows.map((r) => r.id) }) : [];
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

/** One animal's card (its page's header), built and compiled once (the places' and photos' parts come from their modules). */
const cardOf = statement('animal_card', (v: { orgId: string; id: string }) =>
  compiler
    .selectFrom('animals as a')
    .select([
      'a.id',
      'a.name',
      'a.public_name',
      'a.species',
      'a.breed',
      'a.sex',
      'a.colour',
      'a.status_id',
      'a.location_id',
      placeName(),
      'a.date_of_birth',
      'a.intake_date',
      'a.microchip_number',
      'a.is_public',
      'a.public_description',
      firstPhoto(),
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.organization_id', '=', v.orgId)
    .where('a.id', '=', v.id)
    .where('a.deleted_at', 'is', null),
);
export async function getCard(q: Queryable, orgId: string, id: string): Promise<AnimalCardT> {
  const row: CardRow | undefined = (await cardOf(q, { orgId, id }))[0];
  if (!row) throw notFound('animal');
  return (await toCards(q, orgId, [row]))[0] as AnimalCardT;
}

/** The columns the details card changes. */
type DetailsRow = Pick<Selectable<DB['animals']>, 'species' | 'sex' | 'intake_date' | 'breed' | 'colour' | 'public_description'>;
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
    const before: DetailsRow | undefined = await kx(q)
      .selectFrom('animals')
      .select([
        'species',
        'sex',
        sql<string>`to_char(intake_date, 'YYYY-MM-DD')`.as('intake_date'),
        'breed',
        'colour',
        'public_description',
      ])
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!before) throw notFound('animal');
    const fields = Object.keys(patch) as (keyof DetailsRow)[];
    if (!fields.length) return;
    await kx(q)
      .updateTable('animals')
      .set({ ...patch, updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
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
  await kx(q).updateTable('animals').set({ colour }).where('organization_id', '=', orgId).where('id', '=', id).execute();
}
