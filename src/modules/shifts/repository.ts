import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

export type CustomFieldValues = Record<string, string | number | boolean | null>;

const LOC = ['id', 'name', 'created_at', 'updated_at'] as const;
export type LocationRow = Pick<Selectable<DB['shift_locations']>, (typeof LOC)[number]>;
const SCH = [
  's.id',
  's.name',
  's.event_kind',
  's.location_id',
  'l.name as location_name',
  's.all_day',
  's.starts_at',
  's.ends_at',
  's.start_date',
  's.end_date',
  's.status',
  's.custom_fields',
  's.source',
  's.created_at',
  's.updated_at',
  's.cancelled_at',
] as const;
type StoredSchedule = Omit<Selectable<DB['shift_schedules']>, 'organization_id' | 'status' | 'custom_fields' | 'source'>;
/** A schedule as read with its location's name; status and source are checked on write, custom fields are an object. */
export type ScheduleRow = StoredSchedule & {
  location_name: Selectable<DB['shift_locations']>['name'] | null;
  status: 'scheduled' | 'cancelled';
  custom_fields: CustomFieldValues;
  source: 'api' | 'import' | 'seed';
};
export interface NewSchedule {
  name: string;
  event_kind: string | null;
  location_id: string | null;
  all_day: boolean;
  starts_at: Date;
  ends_at: Date;
  start_date: string | null;
  end_date: string | null;
  custom_fields: CustomFieldValues;
  source: 'api' | 'import' | 'seed';
}

// Locations
export async function listLocations(q: Queryable, orgId: string): Promise<LocationRow[]> {
  return kx(q)
    .selectFrom('shift_locations')
    .select(LOC)
    .where('organization_id', '=', orgId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}
export async function locationById(q: Queryable, orgId: string, id: string): Promise<LocationRow | null> {
  return (
    (await kx(q).selectFrom('shift_locations').select(LOC).where('organization_id', '=', orgId).where('id', '=', id).executeTakeFirst()) ??
    null
  );
}
/** Lower-cased name → location, for the names given (one query for any number of rows). */
export async function locationsByNames(q: Queryable, orgId: string, names: string[]): Promise<Map<string, LocationRow>> {
  const rows = await kx(q)
    .selectFrom('shift_locations')
    .select(LOC)
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`lower(name) = ANY(${names.map((n) => n.toLowerCase())}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}
export async function insertLocation(q: Queryable, orgId: string, name: string): Promise<LocationRow> {
  return kx(q)
    .insertInto('shift_locations')
    .values({ organization_id: orgId, id: newId('sloc'), name })
    .returning(LOC)
    .executeTakeFirstOrThrow();
}
export async function renameLocation(q: Queryable, orgId: string, id: string, name: string): Promise<LocationRow | null> {
  return (
    (await kx(q)
      .updateTable('shift_locations')
      .set({ name, updated_at: sql<Date>`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .returning(LOC)
      .executeTakeFirst()) ?? null
  );
}
export async function schedulesAtLocation(q: Queryable, orgId: string, id: string): Promise<number> {
  const r = await kx(q)
    .selectFrom('shift_schedules')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('location_id', '=', id)
    .executeTakeFirst();
  return r?.n ?? 0;
}
export async function deleteLocation(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('shift_locations').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

// Schedules
const schedules = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('shift_schedules as s')
    .leftJoin('shift_locations as l', (j) => j.onRef('l.organization_id', '=', 's.organization_id').onRef('l.id', '=', 's.location_id'))
    .select(SCH)
    .where('s.organization_id', '=', orgId);
const asSchedule = (r: Awaited<ReturnType<ReturnType<typeof schedules>['executeTakeFirstOrThrow']>>): ScheduleRow => r as ScheduleRow;

export async function scheduleById(q: Queryable, orgId: string, id: string, lock = false): Promise<ScheduleRow | null> {
  let one = schedules(q, orgId).where('s.id', '=', id);
  if (lock) one = one.forUpdate('s');
  const row = await one.executeTakeFirst();
  return row ? asSchedule(row) : null;
}

export interface ScheduleFilter {
  from?: Date;
  to?: Date;
  status?: string;
  event_kind?: string;
  location_id?: string;
}
export async function listSchedules(q: Queryable, orgId: string, f: ScheduleFilter, limit: number, offset: number): Promise<ScheduleRow[]> {
  let list = schedules(q, orgId);
  if (f.from) list = list.where('s.ends_at', '>', f.from);
  if (f.to) list = list.where('s.starts_at', '<', f.to);
  if (f.status) list = list.where('s.status', '=', f.status);
  if (f.event_kind) list = list.where('s.event_kind', '=', f.event_kind.trim().toLowerCase());
  if (f.location_id) list = list.where('s.location_id', '=', f.location_id);
  const rows = await list
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(asSchedule);
}

export async function insertSchedule(q: Queryable, orgId: string, s: NewSchedule): Promise<string> {
  const id = newId('sch');
  await kx(q)
    .insertInto('shift_schedules')
    .values({
      organization_id: orgId,
      id,
      name: s.name,
      event_kind: s.event_kind,
      location_id: s.location_id,
      all_day: s.all_day,
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      start_date: s.start_date,
      end_date: s.end_date,
      custom_fields: JSON.stringify(s.custom_fields),
      source: s.source,
    })
    .execute();
  return id;
}

/** Many schedules in one statement (unnest of column arrays): one round trip for thousands of rows. */
export async function insertSchedules(q: Queryable, orgId: string, rows: NewSchedule[]): Promise<string[]> {
  if (!rows.length) return [];
  const ids = rows.map(() => newId('sch'));
  await sql`INSERT INTO shift_schedules (organization_id, id, name, event_kind, location_id, all_day, starts_at, ends_at, start_date,
      end_date, custom_fields, source)
     SELECT ${orgId}, u.id, u.name, u.event_kind, u.location_id, u.all_day, u.starts_at, u.ends_at, u.start_date, u.end_date, '{}'::jsonb,
       ${rows[0]?.source ?? 'import'}
     FROM unnest(${ids}::text[], ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.event_kind)}::text[],
       ${rows.map((r) => r.location_id)}::text[], ${rows.map((r) => r.all_day)}::boolean[],
       ${rows.map((r) => r.starts_at.toISOString())}::timestamptz[], ${rows.map((r) => r.ends_at.toISOString())}::timestamptz[],
       ${rows.map((r) => r.start_date)}::date[], ${rows.map((r) => r.end_date)}::date[])
       AS u(id, name, event_kind, location_id, all_day, starts_at, ends_at, start_date, end_date)`.execute(kx(q));
  return ids;
}

export async function updateSchedule(q: Queryable, orgId: string, id: string, s: NewSchedule): Promise<void> {
  await kx(q)
    .updateTable('shift_schedules')
    .set({
      name: s.name,
      event_kind: s.event_kind,
      location_id: s.location_id,
      all_day: s.all_day,
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      start_date: s.start_date,
      end_date: s.end_date,
      custom_fields: JSON.stringify(s.custom_fields),
      updated_at: sql<Date>`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

export async function cancelSchedule(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q)
    .updateTable('shift_schedules')
    .set({ status: 'cancelled', cancelled_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

/** Windows of a schedule that would fall outside [starts, ends). */
export async function windowsOutside(q: Queryable, orgId: string, scheduleId: string, starts: Date, ends: Date): Promise<number> {
  const r = await kx(q)
    .selectFrom('shift_windows')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', orgId)
    .where('schedule_id', '=', scheduleId)
    .where((e) => e.or([e('starts_at', '<', starts), e('ends_at', '>', ends)]))
    .executeTakeFirst();
  return r?.n ?? 0;
}
