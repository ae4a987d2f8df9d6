import { DateTime } from 'luxon';

/** Everything a coordinator must fix before a transport run can be confirmed (pure logic). */
export const PROBLEM_KINDS = [
  'no_legs',
  'no_animals',
  'first_leg_not_at_origin',
  'last_leg_not_at_destination',
  'leg_not_connected',
  'leg_without_driver',
  'driver_not_on_file',
  'leg_without_times',
  'arrival_before_departure',
  'legs_overlap',
  'first_leg_not_on_scheduled_date',
  'animal_not_in_care',
  'animal_not_on_file',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];
export interface Problem {
  kind: ProblemKind;
  sequence: number;
  message: string;
}

export interface LegFacts {
  sequence: number;
  from_place: string;
  to_place: string;
  driver_person_id: string | null;
  driver_on_file: boolean;
  depart_at: Date | null;
  arrive_at: Date | null;
}
export interface AnimalFacts {
  id: string;
  name: string;
  care_state: string | null;
  on_file: boolean;
}
export interface RunFacts {
  origin: string;
  destination: string;
  scheduled_date: string;
  legs: LegFacts[];
  animals: AnimalFacts[];
  timeZone: string;
}

/** Places match when equal after trimming, collapsing spaces and ignoring case. */
export function samePlace(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  return norm(a) === norm(b);
}

/**
 * Every reason the run cannot be confirmed, ordered by sequence (0 = the run as a whole: legs
 * missing, animals). Empty when the run is ready.
 */
export function transportProblems(run: RunFacts): Problem[] {
  const out: Problem[] = [];
  const legs = [...run.legs].sort((a, b) => a.sequence - b.sequence);
  if (legs.length === 0) out.push({ kind: 'no_legs', sequence: 0, message: 'The run has no legs yet.' });
  if (run.animals.length === 0) out.push({ kind: 'no_animals', sequence: 0, message: 'The run carries no animals yet.' });
  for (const a of run.animals) {
    if (!a.on_file) out.push({ kind: 'animal_not_on_file', sequence: 0, message: `Animal ${a.name} (${a.id}) is no longer on file.` });
    else if (a.care_state !== 'in_care' && a.care_state !== 'on_hold')
      out.push({ kind: 'animal_not_in_care', sequence: 0, message: `${a.name} is not in care (${a.care_state ?? 'unknown'}).` });
  }
  const first = legs[0];
  const last = legs[legs.length - 1];
  if (first && !samePlace(first.from_place, run.origin)) {
    out.push({
      kind: 'first_leg_not_at_origin',
      sequence: first.sequence,
      message: `Leg ${first.sequence} starts at ${first.from_place}, not at the run's origin ${run.origin}.`,
    });
  }
  if (first?.depart_at) {
    const day = DateTime.fromJSDate(first.depart_at).setZone(run.timeZone).toISODate();
    if (day !== run.scheduled_date)
      out.push({
        kind: 'first_leg_not_on_scheduled_date',
        sequence: first.sequence,
        message: `Leg ${first.sequence} departs on ${day}, not on the run's scheduled date ${run.scheduled_date}.`,
      });
  }
  legs.forEach((leg, i) => {
    const prev = i > 0 ? legs[i - 1] : undefined;
    const n = leg.sequence;
    if (prev && !samePlace(prev.to_place, leg.from_place)) {
      out.push({
        kind: 'leg_not_connected',
        sequence: n,
        message: `Leg ${n} starts at ${leg.from_place} but leg ${prev.sequence} ends at ${prev.to_place}.`,
      });
    }
    if (!leg.driver_person_id) out.push({ kind: 'leg_without_driver', sequence: n, message: `Leg ${n} has no driver.` });
    else if (!leg.driver_on_file)
      out.push({ kind: 'driver_not_on_file', sequence: n, message: `The driver of leg ${n} is no longer on file.` });
    if (!leg.depart_at || !leg.arrive_at) {
      out.push({
        kind: 'leg_without_times',
        sequence: n,
        message: `Leg ${n} needs ${
          !leg.depart_at && !leg.arrive_at ? 'a departure and an arrival time' : !leg.depart_at ? 'a departure time' : 'an arrival time'
        }.`,
      });
    } else if (leg.arrive_at.getTime() < leg.depart_at.getTime()) {
      out.push({ kind: 'arrival_before_departure', sequence: n, message: `Leg ${n} arrives before it departs.` });
    }
    if (prev?.arrive_at && leg.depart_at && leg.depart_at.getTime() < prev.arrive_at.getTime()) {
      out.push({ kind: 'legs_overlap', sequence: n, message: `Leg ${n} departs before leg ${prev.sequence} arrives.` });
    }
  });
  if (last && !samePlace(last.to_place, run.destination)) {
    out.push({
      kind: 'last_leg_not_at_destination',
      sequence: last.sequence,
      message: `Leg ${last.sequence} ends at ${last.to_place}, not at the run's destination ${run.destination}.`,
    });
  }
  return out.sort((a, b) => a.sequence - b.sequence);
}
