/**
 * What other modules may use of the stays module. The tables `animal_stays`, `animal_holds`, `stay_subtypes`,
 * `stay_status_map` and `stay_defaults_seeded` belong to this module; other modules read them through these
 * functions or the `animal_live_holds` view (holds in force now) and never write them.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { holdsEnding, holdsOf, liveHoldAnimals } from './holds.repository.ts';
import { liveHoldsOf, toHold } from './holds.service.ts';
import { latestStay } from './repository.ts';
import type { HoldT } from './schemas.ts';

const iso = (at: Date | string | undefined) => (at === undefined ? new Date().toISOString() : new Date(at).toISOString());

/**
 * Of `animalIds` (every animal of the organization when omitted), those with a hold in force at `at`
 * (default now). An animal listed here cannot be adopted or shown on the public listing.
 */
export async function liveHoldAnimalIds(q: Queryable, orgId: string, animalIds?: string[], at?: Date | string): Promise<string[]> {
  return liveHoldAnimals(q, orgId, animalIds ?? null, iso(at));
}

/** Whether an animal is available at `at` (default now): it has an open stay and no live hold; with the live holds. */
export async function animalAvailability(
  q: Queryable,
  orgId: string,
  animalId: string,
  at?: Date | string,
): Promise<{ available: boolean; in_care: boolean; live_hold_ids: string[] }> {
  const when = iso(at);
  const stay = await latestStay(q, orgId, animalId);
  const inCare = stay !== null && stay.outcome_at === null;
  const live = await holdsOf(q, orgId, animalId, when, { live: true }, null);
  return { available: inCare && live.length === 0, in_care: inCare, live_hold_ids: live.map((h) => h.id) };
}

/**
 * Unreleased holds whose end (`ends_at`) falls in [from, to), soonest first, optionally of one animal: the
 * animal calendar's "hold ending" entries. `live` in each describes the moment `from`.
 */
export async function holdsEndingBetween(
  q: Queryable,
  orgId: string,
  from: Date | string,
  to: Date | string,
  animalId?: string,
): Promise<HoldT[]> {
  return (await holdsEnding(q, orgId, iso(from), iso(to), animalId ?? null)).map(toHold);
}

/** The holds in force now on one animal, newest start first. */
export const liveHolds: (q: Queryable, orgId: string, animalId: string) => Promise<HoldT[]> = liveHoldsOf;

export type { HoldT as AnimalHold };

/** Another module's work when an animal enters care (medical protocols), in the intake's transaction. */
export { onIntake, onOutcome, type IntakeHook, type IntakeIdle, type NewAnimal, type OutcomeHook } from './hooks.ts';

/**
 * The age in weeks recorded at the animal's latest intake that states one, and when that intake was: for
 * an age (and age group) when the date of birth is unknown. Null when no intake records an age.
 */
export async function ageAtIntake(q: Queryable, orgId: string, animalId: string): Promise<{ age_weeks: number; intake_at: Date } | null> {
  const rows = await q.query<{ age_weeks: number; intake_at: Date }>(
    `SELECT age_weeks, intake_at FROM animal_stays WHERE organization_id = $1 AND animal_id = $2 AND age_weeks IS NOT NULL
      ORDER BY intake_at DESC LIMIT 1`,
    [orgId, animalId],
  );
  return rows[0] ?? null;
}

/**
 * SQL that is true when the animal `idSql` of organization `orgSql` is available now: it has an open stay
 * (in care) and no hold in force. The same rule as `animalAvailability`, for a list filtered in SQL.
 */
export const availableNowSql = (orgSql: string, idSql: string) =>
  `(EXISTS (SELECT 1 FROM animal_stays st WHERE st.organization_id = ${orgSql} AND st.animal_id = ${idSql} AND st.outcome_at IS NULL)
    AND NOT EXISTS (SELECT 1 FROM animal_live_holds lh WHERE lh.organization_id = ${orgSql} AND lh.animal_id = ${idSql}))`;

/**
 * Records an intake or an outcome inside the caller's transaction, with every rule of
 * POST /api/animals/{id}/intakes and /outcomes (the animal's row locked, one open stay, no adoption under a live
 * hold, the status mapping, the intake hooks). Call ensureStayDefaults first, outside the transaction.
 */
export { intakeIn as recordIntakeIn, outcomeIn as recordOutcomeIn, ensureDefaults as ensureStayDefaults } from './service.ts';
export type { IntakeCreateT as IntakeInput, OutcomeCreateT as OutcomeInput, StayT as AnimalStay } from './schemas.ts';

/** The id of the animal's open stay (no outcome yet), or null when it is not in care. */
export async function openStayId(q: Queryable, orgId: string, animalId: string): Promise<string | null> {
  const latest = await latestStay(q, orgId, animalId);
  return latest && latest.outcome_at === null ? latest.id : null;
}

/** SQL giving `ageAtIntake` as JSON {age_weeks, intake_at} (NULL when no intake recorded an age), for one statement. */
export const ageAtIntakeJsonSql = (orgSql: string, idSql: string) =>
  `(SELECT json_build_object('age_weeks', s.age_weeks, 'intake_at', s.intake_at) FROM animal_stays s
     WHERE s.organization_id = ${orgSql} AND s.animal_id = ${idSql} AND s.age_weeks IS NOT NULL ORDER BY s.intake_at DESC LIMIT 1)`;
