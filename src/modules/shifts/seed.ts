import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import * as repo from './repository.ts';
import * as vrepo from './volunteers.repository.ts';
import * as brepo from './bookings.repository.ts';
import { addDays, localDate, parseWhen, startOfDate } from './time.ts';

/** Sample shifts: locations, qualifications, roles, policies, four weeks of schedules with windows and bookings. */
export async function seedShifts(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const zone = org.time_zone;
  const at = (date: string, hm: string) => {
    const w = parseWhen(`${date}T${hm}`, zone);
    return w?.kind === 'instant' ? w.at : startOfDate(date, zone);
  };
  const shelter = await repo.insertLocation(q, org.id, 'Main Shelter');
  const center = await repo.insertLocation(q, org.id, 'Adoption Center');
  await repo.insertLocation(q, org.id, 'Training Room');
  const orientation = await vrepo.insertQualification(q, org.id, {
    name: 'Orientation',
    description: 'Shelter orientation and signed release',
    validity_days: null,
  });
  const handling = await vrepo.insertQualification(q, org.id, {
    name: 'Dog handling',
    description: 'Leash and kennel handling course',
    validity_days: 365,
  });
  const walker = await vrepo.insertRole(q, org.id, {
    name: 'Dog walker',
    description: 'Walks and enrichment for shelter dogs',
    required_qualification_ids: [orientation.id, handling.id],
  });
  const catCare = await vrepo.insertRole(q, org.id, {
    name: 'Cat care',
    description: 'Feeding, litter, socialising',
    required_qualification_ids: [orientation.id],
  });
  const helper = await vrepo.insertRole(q, org.id, {
    name: 'Event helper',
    description: 'Greeting visitors at adoption events',
    required_qualification_ids: [],
  });
  await vrepo.savePolicies(q, org.id, { min_notice_hours: 12, max_hours_per_week: 20, cancellation_cutoff_hours: 24 });

  const volunteers = data.people.filter((p) => p.roles.includes('volunteer')).map((p) => p.id);
  const today = localDate(new Date(), zone);
  for (const [i, person] of volunteers.entries()) {
    await vrepo.insertGrant(q, org.id, {
      person_id: person,
      qualification_id: orientation.id,
      granted_on: addDays(today, -200),
      expires_on: null,
    });
    if (i % 2 === 0)
      await vrepo.insertGrant(q, org.id, {
        person_id: person,
        qualification_id: handling.id,
        granted_on: addDays(today, -100),
        expires_on: addDays(today, 264),
      });
  }

  const windows: { id: string; role: string; capacity: number }[] = [];
  for (let d = -7; d < 21; d++) {
    const date = addDays(today, d);
    const id = await repo.insertSchedule(q, org.id, {
      name: 'Morning care',
      event_kind: 'care',
      location_id: shelter.id,
      all_day: false,
      starts_at: at(date, '07:00'),
      ends_at: at(date, '12:00'),
      start_date: null,
      end_date: null,
      custom_fields: { lead: 'Shift lead on duty' },
      source: 'seed',
    });
    windows.push({
      id: await brepo.insertWindow(q, org.id, {
        schedule_id: id,
        role_id: walker.id,
        starts_at: at(date, '08:00'),
        ends_at: at(date, '10:00'),
        capacity: 3,
        notes: null,
      }),
      role: walker.id,
      capacity: 3,
    });
    windows.push({
      id: await brepo.insertWindow(q, org.id, {
        schedule_id: id,
        role_id: catCare.id,
        starts_at: at(date, '10:00'),
        ends_at: at(date, '12:00'),
        capacity: 2,
        notes: null,
      }),
      role: catCare.id,
      capacity: 2,
    });
  }
  for (const offset of [6, 13]) {
    const date = addDays(today, offset);
    const id = await repo.insertSchedule(q, org.id, {
      name: 'Saturday adoption day',
      event_kind: 'adoption',
      location_id: center.id,
      all_day: true,
      starts_at: startOfDate(date, zone),
      ends_at: startOfDate(addDays(date, 1), zone),
      start_date: date,
      end_date: date,
      custom_fields: { tables: 6, indoor: true },
      source: 'seed',
    });
    windows.push({
      id: await brepo.insertWindow(q, org.id, {
        schedule_id: id,
        role_id: helper.id,
        starts_at: at(date, '11:00'),
        ends_at: at(date, '15:00'),
        capacity: 4,
        notes: 'Bring a name tag',
      }),
      role: helper.id,
      capacity: 4,
    });
  }
  const training = addDays(today, 9);
  await repo.insertSchedule(q, org.id, {
    name: 'New volunteer orientation',
    event_kind: 'training',
    location_id: null,
    all_day: false,
    starts_at: at(training, '18:00'),
    ends_at: at(training, '20:00'),
    start_date: null,
    end_date: null,
    custom_fields: {},
    source: 'seed',
  });

  // Bookings that keep every rule: one window per volunteer per day, within capacity, walkers qualified.
  if (!volunteers.length) return;
  let n = 0;
  for (const [i, w] of windows.entries()) {
    const day = Math.floor(i / 2);
    const eligible = volunteers.filter((_, k) => w.role !== walker.id || k % 2 === 0);
    const count = Math.min(w.capacity - 1, eligible.length, 2);
    for (let c = 0; c < count; c++) {
      const person = eligible[(day + c + (i % 2)) % eligible.length];
      if (!person || (await brepo.liveBookingOf(q, org.id, w.id, person))) continue;
      const win = await brepo.windowById(q, org.id, w.id);
      if (!win || (await brepo.overlapping(q, org.id, person, win.starts_at, win.ends_at)).length) continue;
      const id = await brepo.insertBooking(q, org.id, w.id, person);
      if (win.ends_at < new Date() && n++ % 4 === 3) await brepo.setAttended(q, org.id, id, false);
      else if (win.ends_at < new Date()) await brepo.setAttended(q, org.id, id, true);
    }
  }
}
