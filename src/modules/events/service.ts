import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { audit, auditUpdate } from '../../platform/audit.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { base62, newId } from '../../platform/ids.ts';
import { isTimeZone } from '../../platform/validators.ts';
import { metaA } from '../../platform/pagination.ts';
import { animalSummaries } from '../animals/public.ts';
import { personExists } from '../people/public.ts';
import * as repo from './repository.ts';
import type { AttendeePutT, EventCreateT, EventListQueryT, EventUpdateT } from './schemas.ts';

const iso = (d: Date, zone: string) => DateTime.fromJSDate(d).setZone(zone).toISO({ suppressMilliseconds: true }) ?? d.toISOString();

export function toEventA(r: repo.EventRow) {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    status: r.status as 'scheduled',
    published: r.published,
    publishedAt: r.published_at ? r.published_at.toISOString() : null,
    startsAt: iso(r.starts_at, r.time_zone),
    endsAt: iso(r.ends_at, r.time_zone),
    timeZone: r.time_zone,
    location: r.location as never,
    capacity: r.capacity,
    placesTaken: r.places_taken,
    campaignId: r.campaign_id,
    animalIds: r.animal_ids,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
export function toAttendeeA(a: repo.AttendeeRow) {
  return {
    eventId: a.event_id,
    personId: a.person_id,
    rsvp: a.rsvp as 'going',
    guests: a.guests,
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
  };
}

function checkLocation(l: EventCreateT['location'], fields: Record<string, string[]>) {
  if (!l) return;
  if (l.type === 'address' && !l.address?.trim()) fields['location.address'] = ['is required for a free address'];
  if (l.type !== 'address' && !l.id) fields['location.id'] = [`is required for a ${l.type.replace('_', ' ')}`];
}

async function checkAnimals(q: Queryable, orgId: string, ids: string[] | undefined, fields: Record<string, string[]>) {
  if (!ids?.length) return;
  const found = new Set((await animalSummaries(q, orgId, ids)).map((a) => a.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length) fields.animalIds = [`names no animal: ${missing.join(', ')}`];
}

export async function createEvent(db: Db, org: Organization, b: EventCreateT, actor: string) {
  const zone = b.timeZone ?? org.time_zone;
  const fields: Record<string, string[]> = {};
  if (!isTimeZone(zone)) fields.timeZone = ['must be an IANA time zone'];
  const starts = new Date(b.startsAt);
  const ends = new Date(b.endsAt);
  if (!(ends > starts)) fields.endsAt = ['must be after startsAt'];
  checkLocation(b.location, fields);
  const id = newId('evt');
  return db.tx(async (q) => {
    await checkAnimals(q, org.id, b.animalIds, fields);
    if (Object.keys(fields).length) throw invalid(fields);
    await repo.insertEvent(q, org.id, {
      id,
      title: b.title,
      description: b.description ?? '',
      starts_at: starts,
      ends_at: ends,
      time_zone: zone,
      location: b.location ?? null,
      capacity: b.capacity ?? null,
      campaign_id: b.campaignId ?? null,
      animal_ids: b.animalIds ?? [],
    });
    await audit(q, org.id, actor, 'create', 'event', id, { title: b.title });
    return toEventA((await repo.getEvent(q, org.id, id)) as repo.EventRow);
  });
}

export async function getEvent(q: Queryable, orgId: string, id: string) {
  const r = await repo.getEvent(q, orgId, id);
  if (!r) throw notFound('event');
  return toEventA(r);
}

const dayStart = (date: string, zone: string) => DateTime.fromISO(date, { zone }).startOf('day').toJSDate();
const dayAfter = (date: string, zone: string) => DateTime.fromISO(date, { zone }).plus({ days: 1 }).startOf('day').toJSDate();

export async function listEvents(q: Queryable, org: Organization, f: EventListQueryT) {
  if (f.dateFrom && f.dateTo && f.dateTo < f.dateFrom) throw invalid({ dateTo: ['must not be before dateFrom'] });
  const { rows, total } = await repo.listEvents(
    q,
    org.id,
    {
      status: f.status,
      published: f.published,
      from: f.dateFrom ? dayStart(f.dateFrom, org.time_zone) : undefined,
      to: f.dateTo ? dayAfter(f.dateTo, org.time_zone) : undefined,
    },
    f.perPage,
    (f.page - 1) * f.perPage,
  );
  return { data: rows.map(toEventA), meta: metaA(total, f.page, f.perPage) };
}

const COLS: Record<string, string> = {
  title: 'title',
  description: 'description',
  startsAt: 'starts_at',
  endsAt: 'ends_at',
  timeZone: 'time_zone',
  location: 'location',
  capacity: 'capacity',
  campaignId: 'campaign_id',
  animalIds: 'animal_ids',
  status: 'status',
};

export async function updateEvent(db: Db, orgId: string, id: string, b: EventUpdateT, actor: string) {
  return db.tx(async (q) => {
    const cur = await repo.getEvent(q, orgId, id, true);
    if (!cur) throw notFound('event');
    const fields: Record<string, string[]> = {};
    if (b.timeZone !== undefined && !isTimeZone(b.timeZone)) fields.timeZone = ['must be an IANA time zone'];
    const starts = b.startsAt ? new Date(b.startsAt) : cur.starts_at;
    const ends = b.endsAt ? new Date(b.endsAt) : cur.ends_at;
    if (!(ends > starts)) fields.endsAt = ['must be after startsAt'];
    checkLocation(b.location, fields);
    await checkAnimals(q, orgId, b.animalIds, fields);
    if (b.capacity != null && b.capacity < cur.places_taken)
      fields.capacity = [`cannot be below the ${cur.places_taken} places already taken`];
    if (Object.keys(fields).length) throw invalid(fields);
    const set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined) continue;
      const col = COLS[k];
      if (!col) continue;
      set[col] = k === 'startsAt' ? starts : k === 'endsAt' ? ends : k === 'description' && v === null ? '' : v;
    }
    // A cancelled event leaves the public calendar.
    if (b.status === 'cancelled' && cur.published) {
      set.published = false;
    }
    if (Object.keys(set).length) await repo.updateEvent(q, orgId, id, set);
    const after = (await repo.getEvent(q, orgId, id)) as repo.EventRow;
    await auditUpdate(q, orgId, actor, 'event', id, cur, after, Object.keys(set));
    return toEventA(after);
  });
}

/** Publishing puts a scheduled event on the public events calendar; a cancelled or completed one cannot be published. */
export async function setPublished(db: Db, orgId: string, id: string, publish: boolean, actor: string) {
  return db.tx(async (q) => {
    const cur = await repo.getEvent(q, orgId, id, true);
    if (!cur) throw notFound('event');
    if (publish && cur.status !== 'scheduled') throw invalid({ status: [`is ${cur.status}: only a scheduled event can be published`] });
    if (cur.published !== publish) {
      await repo.updateEvent(q, orgId, id, { published: publish, published_at: publish ? new Date() : null });
      await audit(q, orgId, actor, publish ? 'publish' : 'unpublish', 'event', id, {
        fields: ['published'],
        changes: { published: { before: cur.published, after: publish } },
      });
    }
    return toEventA((await repo.getEvent(q, orgId, id)) as repo.EventRow);
  });
}

/**
 * Adds or changes a person's RSVP. The event row is locked first, so two RSVPs at once cannot both take the
 * last place: going/attended (with guests) must fit in the capacity, else 409.
 */
export async function putAttendee(db: Db, orgId: string, eventId: string, personId: string, b: AttendeePutT, actor: string) {
  return db.tx(async (q) => {
    const ev = await repo.getEvent(q, orgId, eventId, true);
    if (!ev) throw notFound('event');
    if (!(await personExists(q, orgId, personId))) throw notFound('person');
    const guests = b.guests ?? 0;
    const prev = await repo.getAttendee(q, orgId, eventId, personId);
    const takes = (r: { rsvp: string; guests: number } | null) => (r && (r.rsvp === 'going' || r.rsvp === 'attended') ? 1 + r.guests : 0);
    const need = ev.places_taken - takes(prev) + takes({ rsvp: b.rsvp, guests });
    if (ev.capacity !== null && need > ev.capacity && need > ev.places_taken) {
      throw new AppError('CONFLICT', `The event is full: ${ev.capacity - (ev.places_taken - takes(prev))} place(s) left.`);
    }
    const row = await repo.upsertAttendee(q, orgId, eventId, personId, b.rsvp, guests);
    await audit(q, orgId, actor, row.inserted ? 'add_attendee' : 'update_attendee', 'event', eventId, {
      person_id: personId,
      fields: ['rsvp', 'guests'],
      changes: { rsvp: { before: prev?.rsvp ?? null, after: b.rsvp }, guests: { before: prev?.guests ?? null, after: guests } },
    });
    return { created: row.inserted, attendee: toAttendeeA(row) };
  });
}
export async function removeAttendee(db: Db, orgId: string, eventId: string, personId: string, actor: string) {
  await db.tx(async (q) => {
    if (!(await repo.getEvent(q, orgId, eventId, true))) throw notFound('event');
    if (!(await repo.deleteAttendee(q, orgId, eventId, personId))) throw notFound('attendee');
    await audit(q, orgId, actor, 'remove_attendee', 'event', eventId, { person_id: personId });
  });
}

/** The calendar feed token of a key (or a signed-in member's key): made on first request, the same until rotated. */
export function feedLink(db: Db, orgId: string, actor: string, keyId: string, rotate: boolean) {
  return db.tx(async (q) => {
    let row = rotate ? null : await repo.feedToken(q, orgId, keyId);
    if (!row) {
      row = await repo.setFeedToken(q, orgId, keyId, base62(40));
      await audit(q, orgId, actor, rotate ? 'rotate' : 'create', 'event_calendar_feed', keyId);
    }
    return { token: row.token, created_at: row.created_at };
  });
}
