/**
 * What other modules may use of the adoptions module (it owns application stages, applications, fee schedules,
 * adoptions, contract templates, signed contracts, the donations linked to adoptions and cage card templates).
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { Caller } from './adoptions.service.ts';
import { resendContract } from './contracts.service.ts';
import { organizationCurrency } from '../settings/public.ts';
import { bestPromotion, chooseRule, quote } from './fees.ts';
import type { FeeRuleT, PromotionT } from './schemas.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { newId } from '../../platform/ids.ts';
import { ADOPTED_STAGE, listStages, writeDefaults } from './applications.service.ts';

export { applicationParties } from './applications.service.ts';

/**
 * The adoption fee the organization's active fee schedule sets for an animal today (promotions applied), or null
 * when no schedule or rule applies: for the public website, which shows no fee rather than a made-up one.
 */
export async function currentAdoptionFee(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ amount_minor: number; currency: string } | null> {
  const currency = await organizationCurrency(q, orgId);
  if (!currency) return null;
  const today = new Date().toISOString().slice(0, 10);
  const fee = await quote(q, { id: orgId, currency }, animalId, today, false).catch(() => null);
  return fee?.rule ? { amount_minor: fee.amount_minor, currency: fee.currency } : null;
}

/** The active fee schedule's rules and promotions (null: none), for a caller that prices many animals or keeps it. */
export async function activeFeeSchedule(q: Queryable, orgId: string): Promise<FeeSchedule | null> {
  const row = await kx(q)
    .selectFrom('adoption_fee_schedules')
    .select(['rules', 'promotions'])
    .where('organization_id', '=', orgId)
    .where('active', '=', true)
    .$narrowType<FeeSchedule>()
    .executeTakeFirst();
  return row ?? null;
}
export interface FeeSchedule {
  rules: FeeRuleT[];
  promotions: PromotionT[];
}

/**
 * The fee `currentAdoptionFee` gives, from a schedule already read: the animal's age in weeks from its date of birth,
 * else from the age recorded at its latest intake plus the weeks since (null when neither is known).
 */
export function adoptionFeeFrom(
  schedule: FeeSchedule | null,
  currency: string | null,
  animal: { species: string; date_of_birth: string | null; age_at_intake: { age_weeks: number; intake_at: Date } | null },
  on = new Date(),
): { amount_minor: number; currency: string } | null {
  if (!schedule || !currency) return null;
  const day = on.toISOString().slice(0, 10);
  const weeks = (from: number) => Math.max(0, Math.floor((Date.parse(`${day}T00:00:00Z`) - from) / (7 * 86_400_000)));
  const age_weeks = animal.date_of_birth
    ? weeks(Date.parse(`${animal.date_of_birth}T00:00:00Z`))
    : animal.age_at_intake
      ? animal.age_at_intake.age_weeks + weeks(new Date(animal.age_at_intake.intake_at).getTime())
      : null;
  const rule = chooseRule(schedule.rules, { species: animal.species, age_weeks, special_needs: false });
  if (!rule) return null;
  const promo = bestPromotion(schedule.promotions, animal.species, day, rule.amount_minor);
  return { amount_minor: promo ? promo.amount : rule.amount_minor, currency };
}

/** A person's own adoption applications, newest first, with the stage name the organization gave it. */
export async function applicationsOfPerson(q: Queryable, orgId: string, personId: string) {
  return kx(q)
    .selectFrom('adoption_applications as a')
    .innerJoin('adoption_stages as s', (j) => j.onRef('s.organization_id', '=', 'a.organization_id').onRef('s.id', '=', 'a.stage_id'))
    .select(['a.id', 's.name as stage_name', 's.kind as stage_kind', 'a.decision', 'a.submitted_at'])
    .where('a.organization_id', '=', orgId)
    .where('a.person_id', '=', personId)
    .orderBy('a.submitted_at', 'desc')
    .orderBy('a.id')
    .limit(50)
    .execute();
}
/** A person's contracts not signed yet. */
export async function contractsToSign(q: Queryable, orgId: string, personId: string) {
  return kx(q)
    .selectFrom('signed_contracts')
    .select(['id', 'title'])
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('signed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(20)
    .execute();
}
/** The animals adopted by (or on a trial with) a person, oldest first. */
export async function animalsAdoptedBy(q: Queryable, orgId: string, personId: string): Promise<string[]> {
  const rows = await kx(q)
    .selectFrom('adoptions')
    .select('animal_id')
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('status', 'in', ['adopted', 'trial'])
    .orderBy('started_at')
    .orderBy('id')
    .limit(50)
    .execute();
  return rows.map((r) => r.animal_id);
}
/**
 * A fresh single-use signing link for the person's own unsigned contract (the earlier link stops working), not
 * emailed: the person is sent to it at once. Another person's contract is not found.
 */
export async function freshSigningLink(db: Db, c: Omit<Caller, 'isAdmin'>, personId: string, contractId: string): Promise<string> {
  const own = await contractsToSign(db, c.org.id, personId);
  if (!own.some((x) => x.id === contractId)) throw notFound('contract');
  const made = await resendContract(db, { ...c, isAdmin: false }, contractId, { send_email: false });
  return made.signing_url;
}

/** An adoption brought over from another system (the moving module): the adopter, the stay it ended, the fee paid. */
export interface ImportedAdoption {
  /** Ark's id for it (kept by the caller against the source's id, so a second run updates rather than doubles it). */
  id: string;
  animal_id: string;
  person_id: string;
  /** The stay the adoption ended. */
  stay_id: string;
  adopted_at: string;
  /** Exact, in minor units of the organization's currency (a decimal string); "0" when the source records no fee. */
  fee_minor: string;
  /** The animal came back: the adoption shows as returned, with the stay it came back in when known. */
  returned_at: string | null;
  return_stay_id: string | null;
}

/**
 * Writes adoptions brought over from another system, in the caller's transaction. Each gets the application an
 * adoption record always has in Ark: made for it, decided `adopted` on the adoption date, in the closed stage
 * adopted applications go to, its notes saying it was brought over. An id written before is updated (fee, adopter,
 * return) instead. Each write has an audit row. Nothing else is done (no contract, no emails, no status change: the
 * animal's stays and status are brought over on their own).
 */
export async function importAdoptions(
  q: Queryable,
  orgId: string,
  currency: string,
  rows: ImportedAdoption[],
  actor: string,
): Promise<void> {
  if (!rows.length) return;
  await writeDefaults(q, orgId);
  const stages = await listStages(q, orgId);
  const stage =
    stages.find((s) => s.name.toLowerCase() === ADOPTED_STAGE.toLowerCase() && s.kind === 'closed') ??
    stages.find((s) => s.kind === 'closed');
  if (!stage) throw new Error('the organization has no closed application stage for brought-over adoptions');
  const ids = rows.map((r) => r.id);
  const existing = await kx(q)
    .selectFrom('adoptions')
    .select(['id', 'application_id'])
    .where('organization_id', '=', orgId)
    .where('id', 'in', ids)
    .execute();
  const appOf = new Map(existing.map((e) => [e.id, e.application_id]));
  const fresh = rows.filter((r) => !appOf.has(r.id));
  for (const r of fresh) appOf.set(r.id, newId('apl'));
  const col = <K extends keyof ImportedAdoption>(list: ImportedAdoption[], k: K) => list.map((r) => r[k]);
  if (fresh.length) {
    const apps = fresh.map((r) => appOf.get(r.id) as string);
    await sql`INSERT INTO adoption_applications (organization_id, id, person_id, stage_id, notes, decision, decided_at, submitted_at)
      SELECT ${orgId}, u.id, u.p, ${stage.id}, 'Brought over from another system', 'adopted', u.at, u.at
        FROM unnest(${apps}::text[], ${col(fresh, 'person_id')}::text[], ${col(fresh, 'adopted_at')}::timestamptz[])
          AS u(id, p, at)`.execute(kx(q));
    await sql`INSERT INTO adoption_application_animals (organization_id, application_id, animal_id, position)
      SELECT ${orgId}, u.id, u.a, 0 FROM unnest(${apps}::text[], ${col(fresh, 'animal_id')}::text[]) AS u(id, a)`.execute(kx(q));
  }
  const made = await sql<{ id: string; inserted: boolean; status: string }>`
    INSERT INTO adoptions (organization_id, id, application_id, animal_id, person_id, stay_id, status, adopted_at, started_at,
                           fee_minor, currency, fee_override_reason, returned_at, return_stay_id, created_by)
    SELECT ${orgId}, u.id, u.app, u.a, u.p, u.s, CASE WHEN u.ret IS NULL THEN 'adopted' ELSE 'returned' END, u.at, u.at,
           u.fee, ${currency}, 'as recorded before the move', u.ret, u.rs, ${actor}
      FROM unnest(${ids}::text[], ${rows.map((r) => appOf.get(r.id) as string)}::text[], ${col(rows, 'animal_id')}::text[],
                  ${col(rows, 'person_id')}::text[], ${col(rows, 'stay_id')}::text[], ${col(rows, 'adopted_at')}::timestamptz[],
                  ${col(rows, 'fee_minor')}::bigint[], ${col(rows, 'returned_at')}::timestamptz[], ${col(rows, 'return_stay_id')}::text[])
        AS u(id, app, a, p, s, at, fee, ret, rs)
    ON CONFLICT (organization_id, id) DO UPDATE SET person_id = EXCLUDED.person_id, status = EXCLUDED.status,
      adopted_at = EXCLUDED.adopted_at, started_at = EXCLUDED.started_at, fee_minor = EXCLUDED.fee_minor,
      returned_at = EXCLUDED.returned_at, return_stay_id = EXCLUDED.return_stay_id, updated_at = now()
    RETURNING id, (xmax = 0) AS inserted, status`.execute(kx(q));
  await sql`INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
    SELECT ${orgId}, ${actor}, CASE WHEN u.ins THEN 'import' ELSE 'import_update' END, 'adoption', u.id, jsonb_build_object('status', u.st)
      FROM unnest(${made.rows.map((m) => m.id)}::text[], ${made.rows.map((m) => m.inserted)}::boolean[],
        ${made.rows.map((m) => m.status)}::text[])
        AS u(id, ins, st)`.execute(kx(q));
}
