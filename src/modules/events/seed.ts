import { DateTime } from 'luxon';
import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';

/** An upcoming published adoption day with animals and attendees, an unpublished fundraiser, and a past event. */
export async function seedEvents(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const zone = org.time_zone;
  const at = (days: number, hour: number) =>
    DateTime.now().setZone(zone).plus({ days }).set({ hour, minute: 0, second: 0, millisecond: 0 }).toJSDate();
  const animals = data.animals.slice(0, 3).map((a) => a.id);
  const events = [
    {
      title: 'Saturday adoption day',
      days: 9,
      hours: [10, 15],
      published: true,
      capacity: 60,
      animal_ids: animals,
      address: '12 Market Square',
    },
    {
      title: 'Autumn fundraiser dinner',
      days: 30,
      hours: [18, 22],
      published: false,
      capacity: 80,
      animal_ids: [],
      address: 'Riverside Hall',
    },
    {
      title: 'Volunteer open evening',
      days: -14,
      hours: [18, 20],
      published: true,
      capacity: null,
      animal_ids: [],
      address: 'The shelter',
    },
  ];
  for (const [i, e] of events.entries()) {
    const id = newId('evt');
    await repo.insertEvent(q, org.id, {
      id,
      title: e.title,
      description: `${e.title} hosted by ${org.name}.`,
      starts_at: at(e.days, e.hours[0] ?? 10),
      ends_at: at(e.days, e.hours[1] ?? 12),
      time_zone: zone,
      location: { type: 'address', id: null, address: e.address },
      capacity: e.capacity,
      campaign_id: null,
      animal_ids: e.animal_ids,
    });
    if (e.published) await repo.updateEvent(q, org.id, id, { published: true, published_at: new Date() });
    if (e.days < 0) await repo.updateEvent(q, org.id, id, { status: 'completed' });
    const rsvps = ['going', 'maybe', 'going', 'declined', 'invited'];
    for (const [j, p] of data.people.slice(0, 5 - i).entries()) {
      await repo.upsertAttendee(q, org.id, id, p.id, e.days < 0 ? 'attended' : (rsvps[j] ?? 'invited'), j === 0 ? 1 : 0);
    }
  }
}
