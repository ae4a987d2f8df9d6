import { first, type Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';

export type CustomFieldValues = Record<string, string | number | boolean | null>;

export interface LocationRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}
export interface ScheduleRow {
  id: string;
  name: string;
  event_kind: string | null;
  location_id: string | null;
  location_name: string | null;
  all_day: boolean;
  starts_at: Date;
  ends_at: Date;
  start_date: string | null;
  end_date: string | null;
  status: 'scheduled' | 'cancelled';
  custom_fields: CustomFieldValues;
  source: 'api' | 'import' | 'seed';
  created_at: Date;
  updated_at: Date;
  cancelled_at: Date | null;
}
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
const LOC = 'id, name, created_at, updated_at';
export async function listLocations(q: Queryable, orgId: string): Promise<LocationRow[]> {
  return q.query<LocationRow>(`SELECT ${LOC} FROM shift_locations WHERE organization_id = $1 ORDER BY lower(name), id`, [orgId]);
}
export async function locationById(q: Queryable, orgId: string, id: string): Promise<LocationRow | null> {
  return (await q.query<LocationRow>(`SELECT ${LOC} FROM shift_locations WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null;
}
/** Lower-cased name → location, for the names given (one query for any number of rows). */
export async function locationsByNames(q: Queryable, orgId: string, names: string[]): Promise<Map<string, LocationRow>> {
  const rows = await q.query<LocationRow>(
    `SELECT ${LOC} FROM shift_locations WHERE organization_id = $1 AND lower(name) = ANY($2::text[])`,
    [orgId, names.map((n) => n.toLowerCase())],
  );
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}
export async function insertLocation(q: Queryable, orgId: string, name: string): Promise<LocationRow> {
  const rows = await q.query<LocationRow>(`INSERT INTO shift_locations (organization_id, id, name) VALUES ($1,$2,$3) RETURNING ${LOC}`, [
    orgId,
    newId('sloc'),
    name,
  ]);
  return first(rows);
}
export async function renameLocation(q: Queryable, orgId: string, id: string, name: string): Promise<LocationRow | null> {
  return (
    (
      await q.query<LocationRow>(
        `UPDATE shift_locations SET name = $3, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${LOC}`,
        [orgId, id, name],
      )
    )[0] ?? null
  );
}
export async function schedulesAtLocation(q: Queryable, orgId: string, id: string): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM shift_schedules WHERE organization_id = $1 AND location_id = $2', [
    orgId,
    id,
  ]);
  return r[0]?.n ?? 0;
}
export async function deleteLocation(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM shift_locations WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

// Schedules
const SCH =
  `s.id, s.name, s.event_kind, s.location_id, l.name AS location_name, s.all_day, s.starts_at, s.ends_at, ` +
  `s.start_date, s.end_date,
  s.status, s.custom_fields, s.source, s.created_at, s.updated_at, s.cancelled_at`;
const SCH_FROM = 'shift_schedules s LEFT JOIN shift_locations l ON l.organization_id = s.organization_id AND l.id = s.location_id';

export async function scheduleById(q: Queryable, orgId: string, id: string, lock = false): Promise<ScheduleRow | null> {
  const sql = `SELECT ${SCH} FROM ${SCH_FROM} WHERE s.organization_id = $1 AND s.id = $2${lock ? ' FOR UPDATE OF s' : ''}`;
  return (await q.query<ScheduleRow>(sql, [orgId, id]))[0] ?? null;
}

export interface ScheduleFilter {
  from?: Date;
  to?: Date;
  status?: string;
  event_kind?: string;
  location_id?: string;
}
export async function listSchedules(q: Queryable, orgId: string, f: ScheduleFilter, limit: number, offset: number): Promise<ScheduleRow[]> {
  const where = ['s.organization_id = $1'];
  const params: unknown[] = [orgId];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.from) where.push(`s.ends_at > ${p(f.from)}`);
  if (f.to) where.push(`s.starts_at < ${p(f.to)}`);
  if (f.status) where.push(`s.status = ${p(f.status)}`);
  if (f.event_kind) where.push(`s.event_kind = ${p(f.event_kind.trim().toLowerCase())}`);
  if (f.location_id) where.push(`s.location_id = ${p(f.location_id)}`);
  return q.query<ScheduleRow>(
    `SELECT ${SCH} FROM ${SCH_FROM} WHERE ${where.join(' AND ')} ORDER BY s.starts_at, s.id LIMIT $${params.length + 1} OFFSET
      $${params.length + 2}`,
    [...params, limit + 1, offset],
  );
}

export async function insertSchedule(q: Queryable, orgId: string, s: NewSchedule): Promise<string> {
  const id = newId('sch');
  await q.query(
    `INSERT INTO shift_schedules (organization_id, id, name, event_kind, location_id, all_day, starts_at, ends_at, start_date,
      end_date, custom_fields, source)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
    [
      orgId,
      id,
      s.name,
      s.event_kind,
      s.location_id,
      s.all_day,
      s.starts_at,
      s.ends_at,
      s.start_date,
      s.end_date,
      JSON.stringify(s.custom_fields),
      s.source,
    ],
  );
  return id;
}

/** Many schedules in one statement (unnest of column arrays): one round trip for thousands of rows. */
export async function insertSchedules(q: Queryable, orgId: string, rows: NewSchedule[]): Promise<string[]> {
  if (!rows.length) return [];
  const ids = rows.map(() => newId('sch'));
  await q.query(
    `INSERT INTO shift_schedules (organization_id, id, name, event_kind, location_id, all_day, starts_at, ends_at, start_date,
      end_date, custom_fields, source)
     SELECT $1, u.id, u.name, u.event_kind, u.location_id, u.all_day, u.starts_at, u.ends_at, u.start_date, u.end_date, '{}'::jsonb, $11
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::timestamptz[], $8::timestamptz[],
     $9::date[], $10::date[])
       AS u(id, name, event_kind, location_id, all_day, starts_at, ends_at, start_date, end_date)`,
    [
      orgId,
      ids,
      rows.map((r) => r.name),
      rows.map((r) => r.event_kind),
      rows.map((r) => r.location_id),
      rows.map((r) => r.all_day),
      rows.map((r) => r.starts_at.toISOString()),
      rows.map((r) => r.ends_at.toISOString()),
      rows.map((r) => r.start_date),
      rows.map((r) => r.end_date),
      rows[0]?.source ?? 'import',
    ],
  );
  return ids;
}

export async function updateSchedule(q: Queryable, orgId: string, id: string, s: NewSchedule): Promise<void> {
  await q.query(
    `UPDATE shift_schedules SET name = $3, event_kind = $4, location_id = $5, all_day = $6, starts_at = $7, ends_at = $8,
      start_date = $9, end_date = $10,
       custom_fields = $11, updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [
      orgId,
      id,
      s.name,
      s.event_kind,
      s.location_id,
      s.all_day,
      s.starts_at,
      s.ends_at,
      s.start_date,
      s.end_date,
      JSON.stringify(s.custom_fields),
    ],
  );
}

export async function cancelSchedule(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query(
    `UPDATE shift_schedules SET status = 'cancelled', cancelled_at = now(), updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [orgId, id],
  );
}

/** Windows of a schedule that would fall outside [starts, ends). */
export async function windowsOutside(q: Queryable, orgId: string, scheduleId: string, starts: Date, ends: Date): Promise<number> {
  const r = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM shift_windows WHERE organization_id = $1 AND schedule_id = $2 AND (starts_at < $3 OR ends_at > $4)',
    [orgId, scheduleId, starts, ends],
  );
  return r[0]?.n ?? 0;
}
