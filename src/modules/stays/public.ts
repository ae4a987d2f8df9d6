/**
 * What other modules may use of the stays module. The tables `animal_stays`, `animal_holds`, `stay_subtypes`,
 * `stay_status_map` and `stay_defaults_seeded` belong to this module; other modules read them through these
 * functions or the `animal_live_holds` view (holds in force now) and never write them.
 */
import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
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
  const row = await kx(q)
    .selectFrom('animal_stays')
    .select(['age_weeks', 'intake_at'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', animalId)
    .where('age_weeks', 'is not', null)
    .$narrowType<{ age_weeks: number }>()
    .orderBy('intake_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
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

/** A stay brought over from another system (moving): the whole stay as it was, written or rewritten by its id. */
export interface ImportedStay {
  id: string;
  animal_id: string;
  intake_at: string;
  intake_type: string;
  outcome_at: string | null;
  outcome_type: string | null;
  source_person_id: string | null;
  destination_person_id: string | null;
  adoption_return: boolean;
  intake_notes: string | null;
  outcome_notes: string | null;
}
/**
 * Moving: writes stays as the other system had them (history, not events: no hooks run), each with an audit row;
 * an id already on file is rewritten. The caller orders an animal's stays so at most one is open at a time.
 */
export async function importStays(q: Queryable, orgId: string, rows: ImportedStay[], actor: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const c = rows.slice(i, i + 1000);
    const col = <K extends keyof ImportedStay>(k: K) => c.map((r) => r[k]);
    await sql`
      WITH w AS (
        INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, outcome_at, outcome_type, source_person_id,
                                  destination_person_id, adoption_return, intake_notes, outcome_notes, intake_by, outcome_by)
        SELECT ${orgId}, u.id, u.a, u.ia, u.it, u.oa, u.ot, u.sp, u.dp, u.ar, u.inote, u.onote, ${actor},
               CASE WHEN u.oa IS NULL THEN NULL ELSE ${actor} END
          FROM unnest(${col('id')}::text[], ${col('animal_id')}::text[], ${col('intake_at')}::timestamptz[], ${col('intake_type')}::text[],
                      ${col('outcome_at')}::timestamptz[], ${col('outcome_type')}::text[], ${col('source_person_id')}::text[],
                      ${col('destination_person_id')}::text[], ${col('adoption_return')}::boolean[], ${col('intake_notes')}::text[],
                      ${col('outcome_notes')}::text[]) AS u(id, a, ia, it, oa, ot, sp, dp, ar, inote, onote)
        ON CONFLICT (organization_id, id) DO UPDATE SET intake_at = EXCLUDED.intake_at, intake_type = EXCLUDED.intake_type,
          outcome_at = EXCLUDED.outcome_at, outcome_type = EXCLUDED.outcome_type, source_person_id = EXCLUDED.source_person_id,
          destination_person_id = EXCLUDED.destination_person_id, adoption_return = EXCLUDED.adoption_return,
          intake_notes = EXCLUDED.intake_notes, outcome_notes = EXCLUDED.outcome_notes, outcome_by = EXCLUDED.outcome_by,
          updated_at = now()
        RETURNING id, animal_id, intake_type, outcome_type, (xmax = 0) AS inserted)
      INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
      SELECT ${orgId}, ${actor}, CASE WHEN inserted THEN 'import' ELSE 'import_update' END, 'animal_stay', id,
             jsonb_build_object('animal_id', animal_id, 'intake_type', intake_type, 'outcome_type', outcome_type) FROM w`.execute(kx(q));
  }
}

/** The open stay (no outcome yet) of each of these animals that has one: animal id → stay id. */
export async function openStayIds(q: Queryable, orgId: string, animalIds: string[]): Promise<Map<string, string>> {
  if (!animalIds.length) return new Map();
  const rows = await kx(q)
    .selectFrom('animal_stays')
    .select(['animal_id', 'id'])
    .where('organization_id', '=', orgId)
    .where('animal_id', '=', sql<string>`ANY(${animalIds}::text[])`)
    .where('outcome_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.animal_id, r.id]));
}

/** Shelter Animals Count totals of intakes and outcomes (by category) from `since` on: a move's before and after. */
export async function sacTotals(
  q: Queryable,
  orgId: string,
  since: Date,
): Promise<{ intake: Record<string, number>; outcome: Record<string, number> }> {
  const rows = await sql<{ kind: 'intake' | 'outcome'; category: string; n: string }>`
    SELECT 'intake' AS kind, intake_type AS category, count(*) AS n FROM animal_stays
      WHERE organization_id = ${orgId} AND intake_at >= ${since} GROUP BY intake_type
    UNION ALL
    SELECT 'outcome', outcome_type, count(*) FROM animal_stays
      WHERE organization_id = ${orgId} AND outcome_at >= ${since} GROUP BY outcome_type`
    .execute(kx(q))
    .then((r) => r.rows);
  const out = { intake: {} as Record<string, number>, outcome: {} as Record<string, number> };
  for (const r of rows) out[r.kind][r.category] = Number(r.n);
  return out;
}

/** The Shelter Animals Count intake and outcome categories (the closed lists every stay's type comes from). */
export { INTAKE_TYPES, OUTCOME_TYPES, LIVE_OUTCOMES, type IntakeType, type OutcomeType } from './catalogue.ts';
/** The organization's category → animal status mapping (what an intake or outcome of each category sets). */
export { statusMapOf } from './settings.service.ts';
