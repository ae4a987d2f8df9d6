import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testApp, makeOrg, type TestApp } from '../../../test/harness.ts';
import { seedShifts } from './seed.ts';
import { volunteer } from './test-helpers.ts';

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => t.close());

test('seed adds schedules, windows and bookings that keep every rule', async () => {
  const org = await makeOrg(t);
  const ids = await Promise.all(Array.from({ length: 6 }, () => volunteer(org)));
  const orgRow = (
    await t.db.query<any>('SELECT id, slug, name, email, phone, website, currency, time_zone, country FROM organizations WHERE id = $1', [
      org.id,
    ])
  )[0];
  await t.db.tx((q) =>
    seedShifts(q, orgRow, {
      people: ids.map((id) => ({ id, first_name: 'V', last_name: 'X', email: `${id}@example.org`, roles: ['volunteer'] })),
      animals: [],
    }),
  );
  const n = async (sql: string) => (await t.db.query<{ n: number }>(sql, [org.id]))[0]?.n ?? 0;
  assert.ok((await n('SELECT count(*)::int AS n FROM shift_schedules WHERE organization_id = $1')) >= 30);
  assert.ok((await n('SELECT count(*)::int AS n FROM shift_windows WHERE organization_id = $1')) >= 50);
  assert.ok((await n(`SELECT count(*)::int AS n FROM shift_bookings WHERE organization_id = $1 AND status = 'booked'`)) >= 50);
  assert.equal(
    await n(
      `SELECT count(*)::int AS n FROM shift_windows w WHERE organization_id = $1 AND capacity < (SELECT count(*) FROM
        shift_bookings b WHERE b.organization_id = w.organization_id AND b.window_id = w.id AND b.status = 'booked')`,
    ),
    0,
  );
  assert.equal(
    await n(`SELECT count(*)::int AS n FROM shift_bookings a JOIN shift_windows wa ON wa.organization_id = a.organization_id AND
      wa.id = a.window_id
    JOIN shift_bookings b ON b.organization_id = a.organization_id AND b.person_id = a.person_id AND b.id < a.id
    JOIN shift_windows wb ON wb.organization_id = b.organization_id AND wb.id = b.window_id
    WHERE a.organization_id = $1 AND wa.starts_at < wb.ends_at AND wb.starts_at < wa.ends_at`),
    0,
  );
  const vols = await org.req('GET', '/api/shifts/volunteers');
  assert.ok(vols.body.results.some((v: any) => v.hours_served > 0));
  const today = new Date().toISOString().slice(0, 10);
  const cal = await org.req('GET', `/api/shifts/calendar?from=${today}&to=${today}`);
  assert.equal(cal.status, 200);
  assert.ok(cal.body.results.length >= 1);
  const roles = await org.req('GET', '/api/shifts/roles');
  assert.deepEqual(
    roles.body.results.map((r: any) => r.name),
    ['Cat care', 'Dog walker', 'Event helper'],
  );
});
