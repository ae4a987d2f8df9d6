import { checkDefinedOrFreeform, checkFreeformFields } from '../customfields/public.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';
import * as brepo from './bookings.repository.ts';
import type { Static } from '../../platform/schema.ts';
import { ImportRowObject, type ScheduleCreate, type ScheduleUpdate } from './schemas.ts';
import { bodyAjv } from '../../platform/validation.ts';
import { local, toSpan, type Span } from './time.ts';

export const PREVIEW_ROWS = 10;

/** A schedule as the wire shows it: the instants plus their rendering in the organization's zone. */
export function scheduleWire(r: repo.ScheduleRow, zone: string) {
  return { ...r, starts_at_local: local(r.starts_at, zone), ends_at_local: local(r.ends_at, zone), time_zone: zone };
}

export function normalizeKind(kind: string | null | undefined): string | null {
  const k = kind?.trim().toLowerCase();
  return k ? k : null;
}

/** Free-form schedule custom fields (see customfields/freeform.ts); null values are kept. */
export function checkCustomFields(values: unknown): repo.CustomFieldValues {
  return checkFreeformFields(values, { allowNull: true, maxString: 5000 });
}

async function locationIdFor(q: Queryable, orgId: string, name: string | null | undefined): Promise<string | null> {
  const n = name?.trim();
  if (!n) return null;
  const found = (await repo.locationsByNames(q, orgId, [n])).get(n.toLowerCase());
  if (!found) throw invalid({ location: [`"${n}" matches no location of this organization (see /api/shifts/locations)`] });
  return found.id;
}

function spanOrThrow(start: unknown, end: unknown, zone: string): Span {
  const r = toSpan(start, end, zone);
  if ('errors' in r) throw invalid(Object.fromEntries(Object.entries(r.errors).map(([k, v]) => [k, [v]])));
  return r.span;
}

/** What a schedule is made from: the route body (an import row is turned into the same). */
export type ScheduleInput = Static<typeof ScheduleCreate>;

export async function createSchedule(q: Queryable, orgId: string, zone: string, actor: string, b: ScheduleInput) {
  const span = spanOrThrow(b.starts_at, b.ends_at, zone);
  const location_id = await locationIdFor(q, orgId, b.location);
  const name = b.name.trim();
  if (!name) throw invalid({ name: ['must not be blank'] });
  const id = await repo.insertSchedule(q, orgId, {
    name,
    event_kind: normalizeKind(b.event_kind),
    location_id,
    ...span,
    custom_fields: await checkDefinedOrFreeform(q, orgId, 'shift_schedule', b.custom_fields ?? {}, { creating: true }, checkCustomFields),
    source: 'api',
  });
  await audit(q, orgId, actor, 'create', 'shift_schedule', id, b);
  return repo.scheduleById(q, orgId, id);
}

export async function updateSchedule(
  q: Queryable,
  orgId: string,
  zone: string,
  actor: string,
  id: string,
  b: Static<typeof ScheduleUpdate>,
) {
  const cur = await repo.scheduleById(q, orgId, id, true);
  if (!cur) throw notFound('schedule');
  let span: Span = cur;
  if (b.starts_at !== undefined || b.ends_at !== undefined) {
    const start = b.starts_at ?? (cur.all_day ? cur.start_date : cur.starts_at.toISOString());
    const end =
      b.ends_at !== undefined
        ? b.ends_at
        : cur.all_day
          ? b.starts_at !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(b.starts_at)
            ? null
            : cur.end_date
          : cur.ends_at.toISOString();
    span = spanOrThrow(start, end, zone);
    const outside = await repo.windowsOutside(q, orgId, id, span.starts_at, span.ends_at);
    if (outside)
      throw invalid({
        starts_at: [
          `${outside} shift window${outside === 1 ? ' falls' : 's fall'} outside the new times; move or ` +
            `remove ${outside === 1 ? 'it' : 'them'} first`,
        ],
      });
  }
  const name = b.name !== undefined ? b.name.trim() : cur.name;
  if (!name) throw invalid({ name: ['must not be blank'] });
  await repo.updateSchedule(q, orgId, id, {
    name,
    event_kind: b.event_kind !== undefined ? normalizeKind(b.event_kind) : cur.event_kind,
    location_id: b.location !== undefined ? await locationIdFor(q, orgId, b.location) : cur.location_id,
    all_day: span.all_day,
    starts_at: span.starts_at,
    ends_at: span.ends_at,
    start_date: span.start_date,
    end_date: span.end_date,
    custom_fields:
      b.custom_fields !== undefined
        ? await checkDefinedOrFreeform(
            q,
            orgId,
            'shift_schedule',
            b.custom_fields,
            { creating: false, current: cur.custom_fields },
            checkCustomFields,
          )
        : cur.custom_fields,
    source: cur.source,
  });
  const after = await repo.scheduleById(q, orgId, id);
  await auditChanges(q, orgId, actor, 'shift_schedule', id, cur, after ?? cur);
  return after;
}

export async function cancelSchedule(q: Queryable, orgId: string, actor: string, id: string) {
  const cur = await repo.scheduleById(q, orgId, id, true);
  if (!cur) throw notFound('schedule');
  if (cur.status !== 'cancelled') {
    await repo.cancelSchedule(q, orgId, id);
    await audit(q, orgId, actor, 'cancel', 'shift_schedule', id);
  }
  return repo.scheduleById(q, orgId, id);
}

// Import

const ROW_FIELDS = Object.keys(ImportRowObject.properties).join(', ');
const validRow = bodyAjv.compile<ImportRowObject>(ImportRowObject);

/** A checked line of an import: its number, the schedule it makes and the location it names. */
export interface CheckedLine {
  line: number;
  row: repo.NewSchedule;
  location_name: string | null;
}

/** The schema's complaints about one row, as the sentences of its line error (the span's come from toSpan). */
function schemaProblems(value: unknown): { notObject: boolean; unknown: string[]; field: Map<string, string> } {
  const unknown: string[] = [];
  const field = new Map<string, string>();
  let notObject = false;
  if (validRow(value)) return { notObject, unknown, field };
  const row = value as Record<string, unknown>;
  for (const e of validRow.errors ?? []) {
    const key = e.instancePath.slice(1);
    if (e.keyword === 'type' && key === '') notObject = true;
    else if (e.keyword === 'additionalProperties') unknown.push(String((e.params as { additionalProperty: string }).additionalProperty));
    else if (e.keyword === 'required') {
      const missing = String((e.params as { missingProperty: string }).missingProperty);
      if (missing === 'name') field.set('name', 'name is required');
    } else if (e.keyword === 'type' && key === 'name') field.set('name', row.name === null ? 'name is required' : 'name must be a string');
    else if (e.keyword === 'type' && (key === 'event_kind' || key === 'location')) field.set(key, `${key} must be a string`);
  }
  return { notObject, unknown, field };
}

/**
 * Checks every row on its own (pure: locations come in as a lower-cased name map) against
 * ImportRowObject, then what a schema cannot say. Each refused row gives one error naming all its
 * problems; `line` is the 1-based position in `rows`.
 */
export function checkRows(rows: unknown[], zone: string, locations: Map<string, { id: string; name: string }>) {
  const ok: CheckedLine[] = [];
  const errors: { line: number; message: string }[] = [];
  rows.forEach((value, i) => {
    const line = i + 1;
    const found = schemaProblems(value);
    if (found.notObject || !isRowObject(value)) {
      errors.push({
        line,
        message:
          `Line ${line}: a row must be an object with name and starts_at, ` +
          `not ${value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`}.`,
      });
      return;
    }
    const raw = value;
    const problems = found.unknown.map((k) => `${k} is not a row field (${ROW_FIELDS})`);
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    const nameProblem = found.field.get('name');
    if (nameProblem) problems.push(nameProblem);
    else if (name === '') problems.push('name is required');
    else if (name.length > 200) problems.push('name must be at most 200 characters');
    // starts_at and ends_at: toSpan says what is wrong with them, the wrong type included.
    const span = toSpan(raw.starts_at, raw.ends_at, zone);
    if ('errors' in span) for (const [k, v] of Object.entries(span.errors)) problems.push(`${k} ${v}`);
    let kind: string | null = null;
    const kindProblem = found.field.get('event_kind');
    if (kindProblem) problems.push(kindProblem);
    else if (typeof raw.event_kind === 'string') {
      if (raw.event_kind.trim().length > 60) problems.push('event_kind must be at most 60 characters');
      else kind = normalizeKind(raw.event_kind);
    }
    let loc: { id: string; name: string } | null = null;
    const locationProblem = found.field.get('location');
    if (locationProblem) problems.push(locationProblem);
    else if (typeof raw.location === 'string' && raw.location !== '') {
      loc = locations.get(raw.location.trim().toLowerCase()) ?? null;
      if (!loc) problems.push(`location "${raw.location.trim().slice(0, 200)}" matches no location of this organization`);
    }
    if (problems.length || 'errors' in span) {
      errors.push({ line, message: `Line ${line}: ${problems.join('; ')}.` });
      return;
    }
    ok.push({
      line,
      location_name: loc?.name ?? null,
      row: { name, event_kind: kind, location_id: loc?.id ?? null, ...span.span, custom_fields: {}, source: 'import' },
    });
  });
  return { ok, errors };
}

function isRowObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function importSchedules(q: Queryable, orgId: string, zone: string, actor: string, rows: unknown[], dryRun: boolean) {
  const names = [...new Set(rows.map((r) => (isRowObject(r) && typeof r.location === 'string' ? r.location.trim() : '')).filter(Boolean))];
  const locations = names.length ? await repo.locationsByNames(q, orgId, names) : new Map<string, repo.LocationRow>();
  const { ok, errors } = checkRows(rows, zone, locations);
  let created = 0;
  if (!dryRun && errors.length === 0) {
    const ids = await repo.insertSchedules(
      q,
      orgId,
      ok.map((c) => c.row),
    );
    created = ids.length;
    await audit(q, orgId, actor, 'import', 'shift_schedule_import', newId('imp'), {
      created,
      first_id: ids[0],
      last_id: ids[ids.length - 1],
    });
  }
  return {
    dry_run: dryRun,
    total_rows: rows.length,
    would_create: ok.length,
    created,
    errors,
    skipped: [],
    can_detect_duplicates: false,
    all_day_rows: ok.filter((c) => c.row.all_day).length,
    preview: ok.slice(0, PREVIEW_ROWS).map((c) => ({
      line: c.line,
      name: c.row.name,
      event_kind: c.row.event_kind,
      location_id: c.row.location_id,
      location_name: c.location_name,
      all_day: c.row.all_day,
      starts_at: c.row.starts_at,
      ends_at: c.row.ends_at,
      starts_at_local: local(c.row.starts_at, zone),
      ends_at_local: local(c.row.ends_at, zone),
      start_date: c.row.start_date,
      end_date: c.row.end_date,
    })),
  };
}

// The routes' writes, each one transaction.

export function addSchedule(db: Db, orgId: string, zone: string, actor: string, b: ScheduleInput) {
  return db.tx((q) => createSchedule(q, orgId, zone, actor, b));
}

/** A cancelled schedule no longer changes (422). */
export function changeSchedule(db: Db, orgId: string, zone: string, actor: string, id: string, b: Static<typeof ScheduleUpdate>) {
  return db.tx(async (q) => {
    const cur = await repo.scheduleById(q, orgId, id);
    if (cur?.status === 'cancelled') throw invalid({ id: ['the schedule is cancelled and can no longer change'] });
    return updateSchedule(q, orgId, zone, actor, id, b);
  });
}

/** Cancels the schedule and its live bookings. */
export function cancelScheduleAndBookings(db: Db, orgId: string, actor: string, id: string) {
  return db.tx(async (q) => {
    const r = await cancelSchedule(q, orgId, actor, id);
    await brepo.cancelBookingsOfSchedule(q, orgId, id);
    return r;
  });
}

export function runImport(db: Db, orgId: string, zone: string, actor: string, rows: unknown[], dryRun: boolean) {
  return db.tx((q) => importSchedules(q, orgId, zone, actor, rows, dryRun));
}
