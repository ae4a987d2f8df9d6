import type { Queryable } from '../../platform/db/db.ts';
import { compiler, kx, sql, statement, type DB, type InferResult } from '../../platform/db/kysely.ts';
import type { Kysely } from 'kysely';
import { newId } from '../../platform/ids.ts';
import type { Kind } from './catalogue.ts';
import { liveAnimalNameJoinSql } from '../animals/public.ts';

/** A stay with the names of its intake and outcome subtypes (built on `k`: a connection's builder, or the compiler's). */
const staySelectOn = (k: Kysely<DB>, orgId: string) =>
  k
    .selectFrom('animal_stays as s')
    .leftJoin('stay_subtypes as si', (j) =>
      j.onRef('si.organization_id', '=', 's.organization_id').onRef('si.id', '=', 's.intake_subtype_id'),
    )
    .leftJoin('stay_subtypes as so', (j) =>
      j.onRef('so.organization_id', '=', 's.organization_id').onRef('so.id', '=', 's.outcome_subtype_id'),
    )
    .select([
      's.id',
      's.animal_id',
      's.intake_at',
      's.intake_type',
      's.intake_subtype_id',
      'si.name as intake_subtype',
      's.source_person_id',
      's.source_organization',
      's.source_partner_id',
      's.destination_partner_id',
      's.found_at',
      's.condition',
      's.age_weeks',
      's.age_estimated',
      's.adoption_return',
      's.intake_notes',
      's.intake_by',
      's.outcome_at',
      's.outcome_type',
      's.outcome_subtype_id',
      'so.name as outcome_subtype',
      's.destination_person_id',
      's.destination_organization',
      's.outcome_reason',
      's.outcome_notes',
      's.outcome_by',
      's.created_at',
      's.updated_at',
    ])
    .where('s.organization_id', '=', orgId);
const staySelect = (q: Queryable, orgId: string) => staySelectOn(kx(q), orgId);
export type StayRow = InferResult<ReturnType<typeof staySelect>>[number];

export async function getStay(q: Queryable, orgId: string, id: string, lock = false): Promise<StayRow | null> {
  let one = staySelect(q, orgId).where('s.id', '=', id);
  if (lock) one = one.forUpdate('s');
  return (await one.executeTakeFirst()) ?? null;
}

/** All of an animal's stays, newest intake first (its stays page, an intake's checks): built and compiled once. */
const allStaysOf = statement('stays_of_animal', (v: { orgId: string; animalId: string }) =>
  staySelectOn(compiler, v.orgId).where('s.animal_id', '=', v.animalId).orderBy('s.intake_at', 'desc').orderBy('s.id', 'desc'),
);

/** An animal's stays, newest intake first; `limit` null reads them all. */
export async function staysOf(q: Queryable, orgId: string, animalId: string, limit: number | null, offset = 0): Promise<StayRow[]> {
  if (limit === null && offset === 0) return allStaysOf(q, { orgId, animalId });
  let list = staySelect(q, orgId).where('s.animal_id', '=', animalId).orderBy('s.intake_at', 'desc').orderBy('s.id', 'desc');
  if (limit !== null) list = list.limit(limit);
  return list.offset(offset).execute();
}

type BetweenRow = StayRow & { animal_name: string; animal_species: string; days_in_care: number };
interface BetweenValues extends Record<string, unknown> {
  orgId: string;
  from: string | null;
  to: string | null;
  tz: string;
  now: Date;
  limit: number;
  offset: number;
}
/**
 * The list's statement for one kind and the bounds given, built and compiled once (a list opened daily): each call
 * binds its values. A bound that is not given is left out of the text rather than bound as NULL (`col >= $1 OR $1 IS
 * NULL`): the plan PostgreSQL makes without values could not drop such a condition, always looked dearer than a plan
 * for the call's values, and so the list was planned again on every call.
 */
const between = (kind: Kind | null, hasFrom: boolean, hasTo: boolean) =>
  statement('stays_between', (v: BetweenValues) => {
    const inRange = (col: 's.intake_at' | 's.outcome_at') => {
      const bounds = [
        ...(hasFrom ? [sql<boolean>`${sql.ref(col)} >= ${v.from}::timestamptz`] : []),
        ...(hasTo ? [sql<boolean>`${sql.ref(col)} < ${v.to}::timestamptz`] : []),
      ];
      return bounds.length ? sql<boolean>`(${sql.join(bounds, sql` AND `)})` : null;
    };
    const intakeIn = inRange('s.intake_at');
    const outcomeRange = inRange('s.outcome_at');
    const outcomeIn = outcomeRange ? sql<boolean>`s.outcome_at IS NOT NULL AND ${outcomeRange}` : sql<boolean>`s.outcome_at IS NOT NULL`;
    const where =
      kind === 'intake'
        ? (intakeIn ?? sql<boolean>`true`)
        : kind === 'outcome'
          ? outcomeIn
          : intakeIn
            ? sql<boolean>`(${intakeIn} OR (${outcomeIn}))`
            : sql<boolean>`true`;
    const order = kind === 'outcome' ? sql.ref('s.outcome_at') : sql.ref('s.intake_at');
    // The animal's name and species come with each row (the live animal joined, through the animals module's SQL), in
    // the same prepared statement: the stays' select is built above and read here as a (flattened) subquery.
    const stays = staySelectOn(compiler, v.orgId).select('s.organization_id').where(where);
    return sql<BetweenRow>`SELECT s.*, an.name AS animal_name, an.species AS animal_species,
        greatest(0, (coalesce(s.outcome_at, ${v.now}::timestamptz) AT TIME ZONE ${v.tz})::date
                    - (s.intake_at AT TIME ZONE ${v.tz})::date) AS days_in_care
        FROM (${stays}) s ${sql.raw(liveAnimalNameJoinSql('s.organization_id', 's.animal_id', 'an'))}
        ORDER BY ${order}, s.id LIMIT ${v.limit} OFFSET ${v.offset}`;
  });
const betweenShapes = new Map<string, ReturnType<typeof between>>();
function betweenFor(kind: Kind | null, hasFrom: boolean, hasTo: boolean) {
  const key = `${kind ?? 'any'}:${hasFrom}:${hasTo}`;
  let run = betweenShapes.get(key);
  if (!run) {
    run = between(kind, hasFrom, hasTo);
    betweenShapes.set(key, run);
  }
  return run;
}

/**
 * The organization's stays whose intake (kind `intake`), outcome (kind `outcome`) or either (no kind) happened in
 * [from, to), of animals not deleted, ordered by that moment (by the intake without a kind), then id; one row more than `limit`.
 * Each with its days in care (`daysInCare` in the service) counted in the statement: the calendar days between the
 * intake's and the outcome's (or `day.now`'s) dates in the organization's zone.
 */
export async function staysBetween(
  q: Queryable,
  orgId: string,
  f: { from: string | null; to: string | null; kind: Kind | null },
  limit: number,
  offset: number,
  day: { tz: string; now: Date },
): Promise<BetweenRow[]> {
  const run = betweenFor(f.kind, f.from !== null, f.to !== null);
  return run(q, { orgId, from: f.from, to: f.to, tz: day.tz, now: day.now, limit: limit + 1, offset });
}

/** The animal's most recent stay (open or closed), or null. */
export async function latestStay(q: Queryable, orgId: string, animalId: string): Promise<StayRow | null> {
  return (await staysOf(q, orgId, animalId, 1))[0] ?? null;
}

export interface IntakeInsert {
  animal_id: string;
  intake_at: string;
  intake_type: string;
  intake_subtype_id: string | null;
  source_person_id: string | null;
  source_organization: string | null;
  /** A partner on file (partners module); optional for callers that name none. */
  source_partner_id?: string | null;
  found_at: string | null;
  condition: string;
  age_weeks: number | null;
  age_estimated: boolean;
  adoption_return: boolean;
  intake_notes: string | null;
  intake_by: string | null;
}
export async function insertStay(q: Queryable, orgId: string, s: IntakeInsert): Promise<string> {
  const id = newId('sty');
  await kx(q)
    .insertInto('animal_stays')
    .values({
      organization_id: orgId,
      id,
      animal_id: s.animal_id,
      intake_at: s.intake_at,
      intake_type: s.intake_type,
      intake_subtype_id: s.intake_subtype_id,
      source_person_id: s.source_person_id,
      source_organization: s.source_organization,
      found_at: s.found_at,
      condition: s.condition,
      age_weeks: s.age_weeks,
      age_estimated: s.age_estimated,
      adoption_return: s.adoption_return,
      intake_notes: s.intake_notes,
      intake_by: s.intake_by,
      source_partner_id: s.source_partner_id ?? null,
    })
    .execute();
  return id;
}

export interface OutcomeUpdate {
  outcome_at: string;
  outcome_type: string;
  outcome_subtype_id: string | null;
  destination_person_id: string | null;
  destination_organization: string | null;
  /** A partner on file (partners module); optional for callers that name none. */
  destination_partner_id?: string | null;
  outcome_reason: string | null;
  outcome_notes: string | null;
  outcome_by: string | null;
}
/** Closes the stay if it is still open; false when another request closed it first. */
export async function closeStay(q: Queryable, orgId: string, id: string, o: OutcomeUpdate): Promise<boolean> {
  const rows = await kx(q)
    .updateTable('animal_stays')
    .set({
      outcome_at: o.outcome_at,
      outcome_type: o.outcome_type,
      outcome_subtype_id: o.outcome_subtype_id,
      destination_person_id: o.destination_person_id,
      destination_organization: o.destination_organization,
      outcome_reason: o.outcome_reason,
      outcome_notes: o.outcome_notes,
      outcome_by: o.outcome_by,
      destination_partner_id: o.destination_partner_id ?? null,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('outcome_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

// Subtypes.
const SUBTYPE_COLS = ['id', 'kind', 'name', 'category', 'retired', 'sort_order', 'created_at', 'updated_at'] as const;
/** The kind column as its checked enum (a check constraint holds it to the kinds). */
const asSubtype = <R extends { kind: string }>(r: R): Omit<R, 'kind'> & { kind: Kind } => ({ ...r, kind: r.kind as Kind });
const subtypes = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('stay_subtypes').select(SUBTYPE_COLS).where('organization_id', '=', orgId);
export type SubtypeRow = ReturnType<typeof asSubtype<InferResult<ReturnType<typeof subtypes>>[number]>>;

export async function listSubtypes(
  q: Queryable,
  orgId: string,
  f: { kind?: Kind; include_retired?: boolean },
  limit: number,
  offset: number,
): Promise<SubtypeRow[]> {
  let list = subtypes(q, orgId);
  if (f.kind !== undefined) list = list.where('kind', '=', f.kind);
  if (!f.include_retired) list = list.where('retired', '=', false);
  const rows = await list
    .orderBy('kind')
    .orderBy('sort_order')
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(asSubtype);
}
export async function getSubtype(q: Queryable, orgId: string, id: string): Promise<SubtypeRow | null> {
  const row = await subtypes(q, orgId).where('id', '=', id).executeTakeFirst();
  return row ? asSubtype(row) : null;
}
export async function subtypeByName(q: Queryable, orgId: string, kind: Kind, name: string): Promise<SubtypeRow | null> {
  const row = await subtypes(q, orgId).where('kind', '=', kind).where(sql`lower(name)`, '=', sql`lower(${name})`).executeTakeFirst();
  return row ? asSubtype(row) : null;
}
export async function maxSubtypeOrder(q: Queryable, orgId: string, kind: Kind): Promise<number> {
  const row = await kx(q)
    .selectFrom('stay_subtypes')
    .select((e) => e.fn.max('sort_order').as('m'))
    .where('organization_id', '=', orgId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row?.m ?? 0;
}
export async function insertSubtype(
  q: Queryable,
  orgId: string,
  s: { kind: Kind; name: string; category: string; sort_order: number },
): Promise<SubtypeRow> {
  const row = await kx(q)
    .insertInto('stay_subtypes')
    .values({ organization_id: orgId, id: newId('sst'), kind: s.kind, name: s.name, category: s.category, sort_order: s.sort_order })
    .returning(SUBTYPE_COLS)
    .executeTakeFirstOrThrow();
  return asSubtype(row);
}
export async function updateSubtype(
  q: Queryable,
  orgId: string,
  id: string,
  s: { name?: string; category?: string; retired?: boolean; sort_order?: number },
): Promise<SubtypeRow | null> {
  const row = await kx(q)
    .updateTable('stay_subtypes')
    .set({
      ...(s.name !== undefined && { name: s.name }),
      ...(s.category !== undefined && { category: s.category }),
      ...(s.retired !== undefined && { retired: s.retired }),
      ...(s.sort_order !== undefined && { sort_order: s.sort_order }),
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(SUBTYPE_COLS)
    .executeTakeFirst();
  return row ? asSubtype(row) : null;
}
export async function subtypeUses(q: Queryable, orgId: string, id: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('animal_stays')
    .select((e) => e.fn.countAll<string>().as('n'))
    .where('organization_id', '=', orgId)
    .where((e) => e.or([e('intake_subtype_id', '=', id), e('outcome_subtype_id', '=', id)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteSubtype(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('stay_subtypes').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// Status mapping.
export async function statusMapRows(q: Queryable, orgId: string) {
  return kx(q).selectFrom('stay_status_map').select(['kind', 'category', 'status_id']).where('organization_id', '=', orgId).execute();
}
export async function setMapping(q: Queryable, orgId: string, kind: Kind, category: string, statusId: string | null): Promise<void> {
  await kx(q)
    .insertInto('stay_status_map')
    .values({ organization_id: orgId, kind, category, status_id: statusId })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'kind', 'category'])
        .doUpdateSet({ status_id: (e) => e.ref('excluded.status_id'), updated_at: sql`now()` }),
    )
    .execute();
}

/** Claims the one-time writing of an organization's defaults: true for the one transaction that gets to write them. */
export async function claimDefaults(q: Queryable, orgId: string): Promise<boolean> {
  const rows = await kx(q)
    .insertInto('stay_defaults_seeded')
    .values({ organization_id: orgId })
    .onConflict((oc) => oc.doNothing())
    .returning('organization_id')
    .execute();
  return rows.length > 0;
}
export async function defaultsWritten(q: Queryable, orgId: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('stay_defaults_seeded')
    .select(sql`1`.as('one'))
    .where('organization_id', '=', orgId)
    .executeTakeFirst();
  return row !== undefined;
}
