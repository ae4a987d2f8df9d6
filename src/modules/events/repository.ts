import type { Queryable } from '../../platform/db/db.ts';

export interface EventRow {
  id: string;
  title: string;
  description: string;
  status: string;
  published: boolean;
  published_at: Date | null;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  location: { type: string; id: string | null; address: string | null } | null;
  capacity: number | null;
  campaign_id: string | null;
  animal_ids: string[];
  places_taken: number;
  created_at: Date;
  updated_at: Date;
}
const TAKEN = `COALESCE((SELECT sum(1 + a.guests)::int FROM event_attendees a WHERE a.organization_id = e.organization_id
  AND a.event_id = e.id AND a.rsvp IN ('going','attended')), 0) AS places_taken`;
const COLS = `e.id, e.title, e.description, e.status, e.published, e.published_at, e.starts_at, e.ends_at, e.time_zone, e.location,
  e.capacity, e.campaign_id, e.animal_ids, e.created_at, e.updated_at, ${TAKEN}`;

export async function getEvent(q: Queryable, orgId: string, id: string, lock = false): Promise<EventRow | null> {
  if (lock) await q.query('SELECT 1 FROM events WHERE organization_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
  const rows = await q.query<EventRow>(`SELECT ${COLS} FROM events e WHERE e.organization_id = $1 AND e.id = $2`, [orgId, id]);
  return rows[0] ?? null;
}

export interface EventFilter {
  status?: string;
  published?: boolean;
  /** events ending at or after */
  from?: Date;
  /** events starting before */
  to?: Date;
}
function where(orgId: string, f: EventFilter) {
  const w = ['e.organization_id = $1'];
  const p: unknown[] = [orgId];
  const add = (sql: string, v: unknown) => {
    p.push(v);
    w.push(sql.replace('?', `$${p.length}`));
  };
  if (f.status !== undefined) add('e.status = ?', f.status);
  if (f.published !== undefined) add('e.published = ?', f.published);
  if (f.from !== undefined) add('e.ends_at > ?', f.from);
  if (f.to !== undefined) add('e.starts_at < ?', f.to);
  return { w: w.join(' AND '), p };
}
export async function listEvents(q: Queryable, orgId: string, f: EventFilter, limit: number, offset: number) {
  const { w, p } = where(orgId, f);
  const rows = await q.query<EventRow>(
    `SELECT ${COLS} FROM events e WHERE ${w} ORDER BY e.starts_at, e.id LIMIT $${p.length + 1} OFFSET $${p.length + 2}`,
    [...p, limit, offset],
  );
  const total = Number((await q.query<{ n: string }>(`SELECT count(*) AS n FROM events e WHERE ${w}`, p))[0]?.n ?? 0);
  return { rows, total };
}

export async function insertEvent(
  q: Queryable,
  orgId: string,
  e: Omit<EventRow, 'places_taken' | 'created_at' | 'updated_at' | 'published' | 'published_at' | 'status'>,
) {
  await q.query(
    `INSERT INTO events (organization_id, id, title, description, starts_at, ends_at, time_zone, location, capacity, campaign_id,
       animal_ids)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
    [
      orgId,
      e.id,
      e.title,
      e.description,
      e.starts_at,
      e.ends_at,
      e.time_zone,
      e.location ? JSON.stringify(e.location) : null,
      e.capacity,
      e.campaign_id,
      e.animal_ids,
    ],
  );
}
export async function updateEvent(q: Queryable, orgId: string, id: string, set: Record<string, unknown>) {
  const cols = Object.keys(set);
  const vals = Object.values(set).map((v, i) => (cols[i] === 'location' && v !== null ? JSON.stringify(v) : v));
  await q.query(
    `UPDATE events SET ${cols.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2`,
    [orgId, id, ...vals],
  );
}

export interface AttendeeRow {
  event_id: string;
  person_id: string;
  rsvp: string;
  guests: number;
  created_at: Date;
  updated_at: Date;
}
export async function getAttendee(q: Queryable, orgId: string, eventId: string, personId: string): Promise<AttendeeRow | null> {
  const rows = await q.query<AttendeeRow>(
    `SELECT event_id, person_id, rsvp, guests, created_at, updated_at FROM event_attendees
      WHERE organization_id = $1 AND event_id = $2 AND person_id = $3`,
    [orgId, eventId, personId],
  );
  return rows[0] ?? null;
}
export async function upsertAttendee(q: Queryable, orgId: string, eventId: string, personId: string, rsvp: string, guests: number) {
  const rows = await q.query<AttendeeRow & { inserted: boolean }>(
    `INSERT INTO event_attendees (organization_id, event_id, person_id, rsvp, guests) VALUES ($1,$2,$3,$4,$5)
     ON CONFLICT (organization_id, event_id, person_id) DO UPDATE SET rsvp = EXCLUDED.rsvp, guests = EXCLUDED.guests, updated_at = now()
     RETURNING event_id, person_id, rsvp, guests, created_at, updated_at, (xmax = 0) AS inserted`,
    [orgId, eventId, personId, rsvp, guests],
  );
  return rows[0] as AttendeeRow & { inserted: boolean };
}
export async function deleteAttendee(q: Queryable, orgId: string, eventId: string, personId: string) {
  const rows = await q.query('DELETE FROM event_attendees WHERE organization_id = $1 AND event_id = $2 AND person_id = $3 RETURNING 1', [
    orgId,
    eventId,
    personId,
  ]);
  return rows.length > 0;
}
export async function listAttendees(q: Queryable, orgId: string, eventId: string, rsvp: string | undefined, limit: number, offset: number) {
  const p: unknown[] = [orgId, eventId];
  let w = 'organization_id = $1 AND event_id = $2';
  if (rsvp) {
    p.push(rsvp);
    w += ' AND rsvp = $3';
  }
  const rows = await q.query<AttendeeRow>(
    `SELECT event_id, person_id, rsvp, guests, created_at, updated_at FROM event_attendees WHERE ${w}
      ORDER BY created_at, person_id LIMIT $${p.length + 1} OFFSET $${p.length + 2}`,
    [...p, limit, offset],
  );
  const total = Number((await q.query<{ n: string }>(`SELECT count(*) AS n FROM event_attendees WHERE ${w}`, p))[0]?.n ?? 0);
  return { rows, total };
}

/** The secret address of a key's events calendar feed. */
export async function feedToken(q: Queryable, orgId: string, keyId: string): Promise<{ token: string; created_at: Date } | null> {
  const rows = await q.query<{ token: string; created_at: Date }>(
    'SELECT token, created_at FROM event_calendar_feeds WHERE organization_id = $1 AND key_id = $2',
    [orgId, keyId],
  );
  return rows[0] ?? null;
}
export async function setFeedToken(q: Queryable, orgId: string, keyId: string, token: string) {
  const rows = await q.query<{ token: string; created_at: Date }>(
    `INSERT INTO event_calendar_feeds (organization_id, key_id, token) VALUES ($1,$2,$3)
     ON CONFLICT (organization_id, key_id) DO UPDATE SET token = EXCLUDED.token, created_at = now() RETURNING token, created_at`,
    [orgId, keyId, token],
  );
  return rows[0] as { token: string; created_at: Date };
}
export async function feedByToken(q: Queryable, orgId: string, token: string): Promise<{ key_id: string } | null> {
  const rows = await q.query<{ key_id: string }>('SELECT key_id FROM event_calendar_feeds WHERE organization_id = $1 AND token = $2', [
    orgId,
    token,
  ]);
  return rows[0] ?? null;
}
