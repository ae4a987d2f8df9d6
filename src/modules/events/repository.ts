import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

/** Where an event takes place, as stored in its `location` (JSON). */
export interface EventLocation {
  type: string;
  id: string | null;
  address: string | null;
}
const EVENT_COLS = [
  'e.id',
  'e.title',
  'e.description',
  'e.status',
  'e.published',
  'e.published_at',
  'e.starts_at',
  'e.ends_at',
  'e.time_zone',
  'e.location',
  'e.capacity',
  'e.campaign_id',
  'e.animal_ids',
  'e.created_at',
  'e.updated_at',
] as const;
type Stored = Selectable<DB['events']>;
/** An event as read: its stored columns, the location as its shape, and the places its attendees take. */
export type EventRow = Omit<Stored, 'organization_id' | 'location'> & { location: EventLocation | null; places_taken: number };

const taken = sql<number>`COALESCE((SELECT sum(1 + a.guests)::int FROM event_attendees a WHERE a.organization_id = e.organization_id
  AND a.event_id = e.id AND a.rsvp IN ('going','attended')), 0)`;
const events = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('events as e').select(EVENT_COLS).select(taken.as('places_taken')).where('e.organization_id', '=', orgId);
const toRow = (r: Omit<EventRow, 'location'> & { location: Stored['location'] }): EventRow => ({
  ...r,
  location: r.location as EventLocation | null,
});

export async function getEvent(q: Queryable, orgId: string, id: string, lock = false): Promise<EventRow | null> {
  if (lock) await kx(q).selectFrom('events').select('id').where('organization_id', '=', orgId).where('id', '=', id).forUpdate().execute();
  const row = await events(q, orgId).where('e.id', '=', id).executeTakeFirst();
  return row ? toRow(row) : null;
}

export interface EventFilter {
  status?: string;
  published?: boolean;
  /** events ending at or after */
  from?: Date;
  /** events starting before */
  to?: Date;
}
export async function listEvents(q: Queryable, orgId: string, f: EventFilter, limit: number, offset: number) {
  let list = events(q, orgId);
  let count = kx(q).selectFrom('events as e').select(sql<string>`count(*)`.as('n')).where('e.organization_id', '=', orgId);
  if (f.status !== undefined) {
    list = list.where('e.status', '=', f.status);
    count = count.where('e.status', '=', f.status);
  }
  if (f.published !== undefined) {
    list = list.where('e.published', '=', f.published);
    count = count.where('e.published', '=', f.published);
  }
  if (f.from !== undefined) {
    list = list.where('e.ends_at', '>', f.from);
    count = count.where('e.ends_at', '>', f.from);
  }
  if (f.to !== undefined) {
    list = list.where('e.starts_at', '<', f.to);
    count = count.where('e.starts_at', '<', f.to);
  }
  const rows = await list.orderBy('e.starts_at').orderBy('e.id').limit(limit).offset(offset).execute();
  const total = Number((await count.executeTakeFirst())?.n ?? 0);
  return { rows: rows.map(toRow), total };
}

export async function insertEvent(
  q: Queryable,
  orgId: string,
  e: Omit<EventRow, 'places_taken' | 'created_at' | 'updated_at' | 'published' | 'published_at' | 'status'>,
) {
  await kx(q)
    .insertInto('events')
    .values({
      organization_id: orgId,
      id: e.id,
      title: e.title,
      description: e.description,
      starts_at: e.starts_at,
      ends_at: e.ends_at,
      time_zone: e.time_zone,
      location: e.location ? JSON.stringify(e.location) : null,
      capacity: e.capacity,
      campaign_id: e.campaign_id,
      animal_ids: e.animal_ids,
    })
    .execute();
}
/** The columns an update may set (the service names them from the request's fields). */
const UPDATABLE = new Set<string>([
  'title',
  'description',
  'starts_at',
  'ends_at',
  'time_zone',
  'location',
  'capacity',
  'campaign_id',
  'animal_ids',
  'status',
  'published',
  'published_at',
]);
export async function updateEvent(q: Queryable, orgId: string, id: string, set: Record<string, unknown>) {
  const patch: Record<string, unknown> = {};
  for (const [c, v] of Object.entries(set)) {
    if (!UPDATABLE.has(c)) throw new Error(`events.${c} is not an updatable column`);
    patch[c] = c === 'location' && v !== null ? JSON.stringify(v) : v;
  }
  await kx(q)
    .updateTable('events')
    .set({ ...(patch as Updateable<DB['events']>), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}

const ATTENDEE_COLS = ['event_id', 'person_id', 'rsvp', 'guests', 'created_at', 'updated_at'] as const;
export type AttendeeRow = Pick<Selectable<DB['event_attendees']>, (typeof ATTENDEE_COLS)[number]>;
export async function getAttendee(q: Queryable, orgId: string, eventId: string, personId: string): Promise<AttendeeRow | null> {
  const row = await kx(q)
    .selectFrom('event_attendees')
    .select(ATTENDEE_COLS)
    .where('organization_id', '=', orgId)
    .where('event_id', '=', eventId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  return row ?? null;
}
export async function upsertAttendee(q: Queryable, orgId: string, eventId: string, personId: string, rsvp: string, guests: number) {
  return kx(q)
    .insertInto('event_attendees')
    .values({ organization_id: orgId, event_id: eventId, person_id: personId, rsvp, guests })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'event_id', 'person_id'])
        .doUpdateSet((eb) => ({ rsvp: eb.ref('excluded.rsvp'), guests: eb.ref('excluded.guests'), updated_at: sql<Date>`now()` })),
    )
    .returning(ATTENDEE_COLS)
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
}
export async function deleteAttendee(q: Queryable, orgId: string, eventId: string, personId: string) {
  const row = await kx(q)
    .deleteFrom('event_attendees')
    .where('organization_id', '=', orgId)
    .where('event_id', '=', eventId)
    .where('person_id', '=', personId)
    .returning('person_id')
    .executeTakeFirst();
  return row !== undefined;
}
export async function listAttendees(q: Queryable, orgId: string, eventId: string, rsvp: string | undefined, limit: number, offset: number) {
  let list = kx(q).selectFrom('event_attendees').where('organization_id', '=', orgId).where('event_id', '=', eventId);
  if (rsvp) list = list.where('rsvp', '=', rsvp);
  const rows = await list.select(ATTENDEE_COLS).orderBy('created_at').orderBy('person_id').limit(limit).offset(offset).execute();
  const total = Number((await list.select(sql<string>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
  return { rows, total };
}

/** The secret address of a key's events calendar feed. */
export async function feedToken(q: Queryable, orgId: string, keyId: string): Promise<{ token: string; created_at: Date } | null> {
  const row = await kx(q)
    .selectFrom('event_calendar_feeds')
    .select(['token', 'created_at'])
    .where('organization_id', '=', orgId)
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  return row ?? null;
}
export async function setFeedToken(q: Queryable, orgId: string, keyId: string, token: string) {
  return kx(q)
    .insertInto('event_calendar_feeds')
    .values({ organization_id: orgId, key_id: keyId, token })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'key_id']).doUpdateSet((eb) => ({ token: eb.ref('excluded.token'), created_at: sql<Date>`now()` })),
    )
    .returning(['token', 'created_at'])
    .executeTakeFirstOrThrow();
}
export async function feedByToken(q: Queryable, orgId: string, token: string): Promise<{ key_id: string } | null> {
  const row = await kx(q)
    .selectFrom('event_calendar_feeds')
    .select('key_id')
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .executeTakeFirst();
  return row ?? null;
}
