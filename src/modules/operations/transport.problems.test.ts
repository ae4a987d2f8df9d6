import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transportProblems, samePlace, type LegFacts, type RunFacts } from './transport.problems.ts';

const at = (s: string) => new Date(s);
const leg = (sequence: number, from: string, to: string, more: Partial<LegFacts> = {}): LegFacts => ({
  sequence,
  from_place: from,
  to_place: to,
  driver_person_id: 'per_x',
  driver_on_file: true,
  depart_at: at(`2030-05-01T${String(8 + sequence * 2).padStart(2, '0')}:00:00Z`),
  arrive_at: at(`2030-05-01T${String(9 + sequence * 2).padStart(2, '0')}:00:00Z`),
  ...more,
});
const run = (more: Partial<RunFacts> = {}): RunFacts => ({
  origin: 'Austin',
  destination: 'Denver',
  scheduled_date: '2030-05-01',
  timeZone: 'UTC',
  legs: [leg(1, 'Austin', 'Amarillo'), leg(2, 'Amarillo', 'Denver')],
  animals: [{ id: 'ani_1', name: 'Rex', care_state: 'in_care', on_file: true }],
  ...more,
});
const kinds = (r: RunFacts) => transportProblems(r).map((p) => `${p.kind}@${p.sequence}`);

test('a ready run has no problems', () => {
  assert.deepEqual(transportProblems(run()), []);
});

test('a new run: no legs and no animals', () => {
  const p = transportProblems(run({ legs: [], animals: [] }));
  assert.deepEqual(
    p.map((x) => x.kind),
    ['no_legs', 'no_animals'],
  );
  assert.ok(p.every((x) => x.sequence === 0 && x.message.length > 0));
});

test('legs that do not connect, without driver, arrival before departure, overlap', () => {
  const r = run({
    legs: [
      leg(1, 'Austin', 'Amarillo', { arrive_at: at('2030-05-01T12:00:00Z') }),
      leg(2, 'Lubbock', 'Pueblo', { driver_person_id: null, depart_at: at('2030-05-01T11:00:00Z'), arrive_at: at('2030-05-01T10:00:00Z') }),
      leg(3, 'Pueblo', 'Denver', { driver_on_file: false }),
    ],
  });
  assert.deepEqual(kinds(r), [
    'leg_not_connected@2',
    'leg_without_driver@2',
    'arrival_before_departure@2',
    'legs_overlap@2',
    'driver_not_on_file@3',
  ]);
});

test('first leg not at origin, last not at destination, missing times, wrong day', () => {
  const r = run({
    legs: [
      leg(1, 'Dallas', 'Amarillo', { depart_at: at('2030-05-02T08:00:00Z'), arrive_at: at('2030-05-02T09:30:00Z') }),
      leg(2, 'Amarillo', 'Boulder', { depart_at: at('2030-05-02T10:00:00Z'), arrive_at: null }),
    ],
  });
  assert.deepEqual(kinds(r), [
    'first_leg_not_at_origin@1',
    'first_leg_not_on_scheduled_date@1',
    'leg_without_times@2',
    'last_leg_not_at_destination@2',
  ]);
});

test("the scheduled day is judged in the organization's time zone", () => {
  const r = run({
    timeZone: 'America/Denver',
    legs: [leg(1, 'Austin', 'Denver', { depart_at: at('2030-05-02T03:00:00Z'), arrive_at: at('2030-05-02T09:00:00Z') })],
  });
  assert.deepEqual(kinds(r), []);
});

test('animals not in care or no longer on file', () => {
  const r = run({
    animals: [
      { id: 'ani_1', name: 'Rex', care_state: 'completed', on_file: true },
      { id: 'ani_2', name: 'Mo', care_state: 'on_hold', on_file: true },
      { id: 'ani_3', name: 'Gone', care_state: null, on_file: false },
    ],
  });
  assert.deepEqual(kinds(r), ['animal_not_in_care@0', 'animal_not_on_file@0']);
  assert.match(transportProblems(r)[0]?.message ?? '', /Rex/);
});

test('places compare ignoring case and spacing', () => {
  assert.ok(samePlace('  Fort  Worth ', 'fort worth'));
  assert.ok(!samePlace('Fort Worth', 'Fort Collins'));
  assert.deepEqual(kinds(run({ origin: 'austin ', legs: [leg(1, 'AUSTIN', 'amarillo'), leg(2, 'Amarillo', 'denver')] })), []);
});
