import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
import { allows, type Grants } from '../../platform/permissions.ts';
import { calendarEntries } from '../medical/public.ts';
import { shiftSchedulesBetween } from '../shifts/public.ts';
import { eventsBetween } from '../events/public.ts';
import { Type, Nullable, StringEnum, DateString, Timestamp, type Static } from '../../platform/schema.ts';
import * as repo from './repository.ts';
import { visibleLinks } from './service.ts';

export const CAL_KINDS = ['task', 'medical_due', 'hold_ends', 'foster_ends', 'transport', 'shift', 'event'] as const;
export type CalKind = (typeof CAL_KINDS)[number];
/** The area a key must read to see entries of each kind (tasks are further narrowed by their linked record). */
export const KIND_AREA = {
  task: 'tasks',
  medical_due: 'animals',
  hold_ends: 'animals',
  foster_ends: 'animals',
  transport: 'animals',
  shift: 'shifts',
  event: 'events',
} as const;

export const CalEntry = Type.Object(
  {
    date: DateString({ description: 'the day in the organization’s time zone' }),
    starts_at: Nullable(Timestamp({ description: 'for tasks (due), shifts and events; null for all-day animal entries' })),
    ends_at: Nullable(Timestamp()),
    kind: StringEnum(CAL_KINDS),
    title: Type.String(),
    source_id: Type.String({ description: 'the task, due item, hold, foster assignment, transport run, shift schedule or event' }),
    animal_id: Nullable(Type.String()),
    animal_name: Nullable(Type.String()),
  },
  { $id: 'OrgCalendarEntry' },
);
export type CalEntryT = Static<typeof CalEntry>;
export const OrgCalendar = Type.Object(
  {
    from: DateString(),
    to: DateString(),
    time_zone: Type.String(),
    kinds: Type.Array(StringEnum(CAL_KINDS), { description: 'the kinds shown: those asked for that the key may read' }),
    results: Type.Array(CalEntry),
    truncated: Type.Boolean(),
  },
  { $id: 'OrgCalendar' },
);

const ORDER: Record<CalKind, number> = { task: 0, event: 1, shift: 2, medical_due: 3, hold_ends: 4, foster_ends: 5, transport: 6 };

export interface OrgWindow {
  orgId: string;
  zone: string;
  from: string;
  to: string;
  kinds: CalKind[];
  grants: Grants;
  limit: number;
}

/** Every entry in the window of the kinds asked for, narrowed to what the grants may read; by date, time, kind, title. */
export async function orgCalendar(q: Queryable, w: OrgWindow): Promise<{ kinds: CalKind[]; results: CalEntryT[]; truncated: boolean }> {
  const kinds = w.kinds.filter((k) => allows(w.grants, KIND_AREA[k], 'read'));
  const want = new Set(kinds);
  const from = DateTime.fromISO(w.from, { zone: w.zone }).startOf('day');
  const to = DateTime.fromISO(w.to, { zone: w.zone }).plus({ days: 1 }).startOf('day');
  const day = (d: Date) => DateTime.fromJSDate(d).setZone(w.zone).toISODate() ?? w.from;
  const clampDay = (d: Date) => (d < from.toJSDate() ? w.from : day(d));
  const out: CalEntryT[] = [];
  const n = w.limit + 1;
  if (want.has('task')) {
    for (const t of await repo.tasksDueBetween(q, w.orgId, from.toJSDate(), to.toJSDate(), visibleLinks(w.grants), n)) {
      if (t.done || !t.due_at) continue;
      const due = new Date(t.due_at);
      out.push({
        date: day(due),
        starts_at: due,
        ends_at: null,
        kind: 'task',
        title: t.title,
        source_id: t.id,
        animal_id: t.linked_type === 'animal' ? t.linked_id : null,
        animal_name: null,
      });
    }
  }
  if (['medical_due', 'hold_ends', 'foster_ends', 'transport'].some((k) => want.has(k as CalKind))) {
    const { results } = await calendarEntries(q, { orgId: w.orgId, zone: w.zone, from: w.from, to: w.to, limit: n });
    for (const e of results) {
      if (!want.has(e.kind)) continue;
      out.push({
        date: e.date,
        starts_at: null,
        ends_at: null,
        kind: e.kind,
        title: e.title,
        source_id: e.source_id,
        animal_id: e.animal_id,
        animal_name: e.animal_name,
      });
    }
  }
  if (want.has('shift')) {
    for (const s of await shiftSchedulesBetween(q, w.orgId, from.toJSDate(), to.toJSDate(), n)) {
      out.push({
        date: clampDay(s.starts_at),
        starts_at: s.starts_at,
        ends_at: s.ends_at,
        kind: 'shift',
        title: s.name,
        source_id: s.id,
        animal_id: null,
        animal_name: null,
      });
    }
  }
  if (want.has('event')) {
    for (const e of await eventsBetween(q, w.orgId, from.toJSDate(), to.toJSDate(), n)) {
      out.push({
        date: clampDay(e.starts_at),
        starts_at: e.starts_at,
        ends_at: e.ends_at,
        kind: 'event',
        title: e.title,
        source_id: e.id,
        animal_id: null,
        animal_name: null,
      });
    }
  }
  const ms = (v: string | Date | null) => (v === null ? -1 : new Date(v).getTime());
  out.sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      ms(a.starts_at) - ms(b.starts_at) ||
      ORDER[a.kind] - ORDER[b.kind] ||
      a.title.localeCompare(b.title) ||
      a.source_id.localeCompare(b.source_id),
  );
  return { kinds, results: out.slice(0, w.limit), truncated: out.length > w.limit };
}
