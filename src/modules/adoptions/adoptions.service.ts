import type { Static } from '@sinclair/typebox';
import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { AppError, invalid, missing, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { Principal } from '../../platform/auth.ts';
import type { Config } from '../../config.ts';
import { lockAnimalPlace } from '../animals/public.ts';
import { addRole, personFlags } from '../people/public.ts';
import { bondedWarnings } from '../care/public.ts';
import { endFosterForAdoption } from '../operations/public.ts';
import { insertDonation } from '../donations/public.ts';
import { ensureStayDefaults, liveHoldAnimalIds, openStayId, recordIntakeIn, recordOutcomeIn } from '../stays/public.ts';
import { providersConfigured, send } from '../communications/public.ts';
import { ADOPTED_STAGE, applicationById, ensureDefaults, listStages } from './applications.service.ts';
import { quote } from './fees.ts';
import type { AdoptionReturn, AdoptionT, DonationLink, FeePayment, Finalize, WarningT } from './schemas.ts';

export interface Caller {
  org: Organization;
  actor: string;
  principal: Principal;
  config: Config;
  isAdmin: boolean;
}

/** The ledger's `source` of a donation recording an adoption fee paid (POST .../adoptions/{id}/fee-payments). */
export const FEE_SOURCE = 'adoption_fee';
/** The adoptions of an organization as answered, with the animal's and the adopter's names, linked and paid donations. */
const adoptionRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('adoptions as d')
    .leftJoin('animal_directory as an', (j) => j.onRef('an.organization_id', '=', 'd.organization_id').onRef('an.id', '=', 'd.animal_id'))
    .leftJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'd.organization_id').onRef('p.id', '=', 'd.person_id'))
    .select([
      'd.id',
      'd.application_id',
      'd.animal_id',
      sql<string>`coalesce(an.name, '')`.as('animal_name'),
      'd.person_id',
      sql<string>`coalesce(p.display_name, '')`.as('adopter_name'),
      'd.stay_id',
      'd.status',
      sql<string | null>`to_char(d.trial_ends_on, 'YYYY-MM-DD')`.as('trial_ends_on'),
      'd.started_at',
      'd.adopted_at',
      'd.fee_minor',
      'd.currency',
      'd.fee_schedule_id',
      'd.fee_rule',
      'd.fee_promotion',
      'd.fee_override_reason',
      'd.flag_override_reason',
      'd.contract_id',
      'd.returned_at',
      'd.return_reason',
      'd.return_stay_id',
      'd.within_return_window',
      sql<string[]>`coalesce((SELECT array_agg(x.donation_id ORDER BY x.created_at, x.donation_id) FROM adoption_donations x
         WHERE x.organization_id = d.organization_id AND x.adoption_id = d.id), '{}')`.as('donation_ids'),
      sql<string>`coalesce((SELECT sum(l.amount_minor) FROM adoption_donations x
         JOIN donation_ledger l ON l.organization_id = x.organization_id AND l.id = x.donation_id
         WHERE x.organization_id = d.organization_id AND x.adoption_id = d.id
           AND l.source = ${FEE_SOURCE} AND l.deleted_at IS NULL), 0)`.as('fee_paid_minor'),
      'd.created_at',
      'd.updated_at',
    ])
    .where('d.organization_id', '=', orgId);
type AdoptionRead = Awaited<ReturnType<ReturnType<typeof adoptionRows>['executeTakeFirstOrThrow']>>;

const present = (r: AdoptionRead): AdoptionT => ({
  ...r,
  status: r.status as AdoptionT['status'],
  fee_minor: Number(r.fee_minor),
  fee_paid_minor: Number(r.fee_paid_minor),
});

export async function adoptionById(q: Queryable, orgId: string, id: string, lock = false): Promise<AdoptionT | null> {
  if (
    lock &&
    !(await kx(q)
      .selectFrom('adoptions')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst())
  )
    return null;
  const r = await adoptionRows(q, orgId).where('d.id', '=', id).executeTakeFirst();
  return r ? present(r) : null;
}
export async function getAdoption(q: Queryable, orgId: string, id: string): Promise<AdoptionT> {
  const r = await adoptionById(q, orgId, id);
  if (!r) throw notFound('adoption');
  return r;
}
export async function listAdoptions(
  q: Queryable,
  orgId: string,
  f: { animal_id?: string; person_id?: string; status?: string; limit: number; offset: number },
) {
  let list = adoptionRows(q, orgId);
  if (f.animal_id) list = list.where('d.animal_id', '=', f.animal_id);
  if (f.person_id) list = list.where('d.person_id', '=', f.person_id);
  if (f.status) list = list.where('d.status', '=', f.status);
  const rows = await list
    .orderBy('d.started_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return { results: rows.slice(0, f.limit).map(present), limit: f.limit, offset: f.offset, has_more: rows.length > f.limit };
}

const dayIn = (at: string | Date, tz: string) =>
  (typeof at === 'string' ? DateTime.fromISO(at, { zone: tz }) : DateTime.fromJSDate(at, { zone: tz })).toISODate() as string;

/** The closed stage an adopted application and the others for its animals move to: `Animal adopted`, else the first closed stage. */
async function adoptedStage(q: Queryable, orgId: string) {
  const stages = await listStages(q, orgId);
  const stage =
    stages.find((s) => s.name.toLowerCase() === ADOPTED_STAGE.toLowerCase() && s.kind === 'closed') ??
    stages.find((s) => s.kind === 'closed');
  if (!stage) throw invalid({ stage_id: ['the organization has no closed application stage to move adopted applications to'] });
  return stage;
}

/** The application became an adoption: decision `adopted`, and its stage the adopted stage (no longer Approved). */
async function markAdopted(q: Queryable, orgId: string, applicationId: string): Promise<void> {
  const stage = await adoptedStage(q, orgId);
  await kx(q)
    .updateTable('adoption_applications')
    .set({ decision: 'adopted', stage_id: stage.id, decided_at: sql`now()`, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', applicationId)
    .execute();
}

/** Closes every other application (not closed yet) naming one of these animals: stage `Animal adopted`, reason `animal adopted`. */
async function closeOthers(
  q: Queryable,
  orgId: string,
  winner: string,
  animalIds: string[],
  actor: string,
): Promise<{ id: string; person_id: string }[]> {
  const stage = await adoptedStage(q, orgId);
  const rows = await kx(q)
    .updateTable('adoption_applications as a')
    .set({ stage_id: stage.id, decision: 'closed', decision_reason: 'animal adopted', decided_at: sql`now()`, updated_at: sql`now()` })
    .where('a.organization_id', '=', orgId)
    .where('a.id', '<>', winner)
    .where(
      sql<boolean>`EXISTS (SELECT 1 FROM adoption_application_animals x WHERE x.organization_id = a.organization_id
                      AND x.application_id = a.id
                      AND x.animal_id = ANY(${animalIds}::text[]))`,
    )
    .where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM adoption_stages s WHERE s.organization_id = a.organization_id AND s.id
          = a.stage_id AND s.kind = 'closed')`,
    )
    .where(sql<boolean>`a.decision IS DISTINCT FROM 'adopted'`)
    .returning(['a.id', 'a.person_id'])
    .execute();
  for (const r of rows)
    await audit(q, orgId, actor, 'close', 'adoption_application', r.id, { reason: 'animal adopted', adopted_by: winner });
  return rows;
}

/** The animal leaves care as adopted: outcome of type adoption, foster assignment ended, applicant becomes an adopter. */
async function adoptAnimal(
  q: Queryable,
  c: Caller,
  animalId: string,
  personId: string,
  at: string,
  applicationId: string,
): Promise<string> {
  const stay = await recordOutcomeIn(
    q,
    c.org.id,
    animalId,
    { occurred_at: at, type: 'adoption', destination_person_id: personId, reason: `adoption application ${applicationId}` },
    c.actor,
    c.org.time_zone,
  );
  await endFosterForAdoption(q, c.org.id, animalId, dayIn(at, c.org.time_zone), c.actor);
  await addRole(q, c.org.id, personId, 'adopter', c.actor);
  return stay.id;
}

async function checkFlags(q: Queryable, c: Caller, personId: string, override: string | undefined, subject: string): Promise<void> {
  const flags = (await personFlags(q, c.org.id, personId)).filter((f) => f.flag === 'banned' || f.flag === 'do not adopt');
  if (!flags.length) return;
  const names = flags.map((f) => f.flag).join(' and ');
  if (!override)
    throw invalid({
      person_id: [`the applicant is flagged ${names}: an admin may override with flag_override_reason`],
    });
  if (!c.isAdmin) throw new AppError('FORBIDDEN', `The applicant is flagged ${names}; only a key with admin on animals may override that.`);
  await audit(q, c.org.id, c.actor, 'override_flag', 'adoption_application', subject, {
    flags: flags.map((f) => f.flag),
    reason: override,
  });
}

async function checkContract(q: Queryable, orgId: string, applicationId: string, contractId: string | undefined): Promise<string | null> {
  if (!contractId) return null;
  const r = await kx(q)
    .selectFrom('signed_contracts')
    .select(['application_id', 'signed_at'])
    .where('organization_id', '=', orgId)
    .where('id', '=', contractId)
    .executeTakeFirst();
  if (!r || r.application_id !== applicationId) throw invalid({ contract_id: ['names no contract of this application'] });
  if (!r.signed_at) throw invalid({ contract_id: ['the contract is not signed yet'] });
  return contractId;
}

const isUnique = (e: unknown) => (e as { code?: string }).code === '23505';

/**
 * Finalizes an approved application into adoptions (one per animal) in one transaction; after commit, the
 * applicants of the applications it closed are told through the organization's chosen template (if any).
 */
export async function finalize(db: Db, c: Caller, applicationId: string, b: Static<typeof Finalize>) {
  const orgId = c.org.id;
  await ensureDefaults(db, orgId);
  await ensureStayDefaults(db, orgId);
  if (b.fee_minor !== undefined && !b.fee_override_reason) throw missing(['fee_override_reason']);
  if (b.trial && !b.trial_ends_on) throw missing(['trial_ends_on']);
  if (!b.trial && b.trial_ends_on) throw invalid({ trial_ends_on: ['only a trial (trial: true) has an end date'] });
  const at = b.occurred_at ?? new Date().toISOString();
  if (b.trial_ends_on && b.trial_ends_on <= dayIn(at, c.org.time_zone))
    throw invalid({ trial_ends_on: ['must be after the trial starts'] });
  let result: { adoptions: AdoptionT[]; warnings: WarningT[]; closed: { id: string; person_id: string }[] };
  try {
    result = await db.tx(async (q) => {
      // The animals are locked before the application, so a concurrent finalization of another application for the same
      // animal waits here without holding its application, which this one may close.
      const peek = await applicationById(q, orgId, applicationId);
      if (!peek) throw notFound('adoption application');
      for (const animalId of [...(b.animal_ids ?? peek.animal_ids)].sort()) await lockAnimalPlace(q, orgId, animalId, true);
      const app = await applicationById(q, orgId, applicationId, true);
      if (!app) throw notFound('adoption application');
      if (app.decision === 'adopted') throw invalid({ id: ['the application was already finalized'] });
      if (app.stage_kind !== 'approved')
        throw invalid({ stage_id: [`the application is at ${app.stage} (${app.stage_kind}): move it to an approved stage first`] });
      const animals = b.animal_ids ?? app.animal_ids;
      const foreign = animals.filter((a) => !app.animal_ids.includes(a));
      if (foreign.length) throw invalid({ animal_ids: [`not applied for in this application: ${foreign.join(', ')}`] });
      await checkFlags(q, c, app.person_id, b.flag_override_reason, applicationId);
      const contractId = await checkContract(q, orgId, applicationId, b.contract_id);
      const adoptions: AdoptionT[] = [];
      for (const animalId of [...animals].sort()) {
        const place = await lockAnimalPlace(q, orgId, animalId, true);
        if (!place) throw invalid({ animal_ids: [`animal ${animalId} is not on file`] });
        if ((await liveHoldAnimalIds(q, orgId, [animalId], at)).length)
          throw invalid({ animal_ids: [`animal ${animalId} has a live hold: release it before the adoption`] });
        const stayId = await openStayId(q, orgId, animalId);
        const stay = stayId ? { id: stayId } : null;
        if (!stay) throw invalid({ animal_ids: [`animal ${animalId} is not in care (already adopted, or no open stay)`] });
        const taken = await kx(q)
          .selectFrom('adoptions')
          .select('status')
          .where('organization_id', '=', orgId)
          .where('stay_id', '=', stay.id)
          .where('status', '<>', 'trial_ended')
          .execute();
        if (taken.length)
          throw invalid({
            animal_ids: [`animal ${animalId} is already ${taken[0]?.status === 'trial' ? 'on a trial adoption' : 'adopted'}`],
          });
        const fee = await quote(q, c.org, animalId, dayIn(at, c.org.time_zone), b.special_needs ?? false);
        const id = newId('adp');
        if (!b.trial) await adoptAnimal(q, c, animalId, app.person_id, at, applicationId);
        await kx(q)
          .insertInto('adoptions')
          .values({
            organization_id: orgId,
            id,
            application_id: applicationId,
            animal_id: animalId,
            person_id: app.person_id,
            stay_id: stay.id,
            status: b.trial ? 'trial' : 'adopted',
            trial_ends_on: b.trial_ends_on ?? null,
            adopted_at: b.trial ? null : at,
            started_at: at,
            fee_minor: String(b.fee_minor ?? fee.amount_minor),
            currency: c.org.currency,
            fee_schedule_id: fee.fee_schedule_id,
            fee_rule: fee.rule,
            fee_promotion: b.fee_minor !== undefined ? null : fee.promotion,
            fee_override_reason: b.fee_override_reason ?? null,
            flag_override_reason: b.flag_override_reason ?? null,
            contract_id: contractId,
            created_by: c.actor,
          })
          .execute();
        await audit(q, orgId, c.actor, b.trial ? 'trial' : 'adopt', 'adoption', id, {
          application_id: applicationId,
          animal_id: animalId,
          fee_minor: b.fee_minor ?? fee.amount_minor,
          fee_rule: fee.rule,
          ...(b.fee_override_reason ? { fee_override_reason: b.fee_override_reason, scheduled_fee_minor: fee.amount_minor } : {}),
        });
        if (!b.trial) {
          await recordChange(q, orgId, {
            event: 'adoption.finalized',
            entity: 'adoption',
            id,
            fields: { animal_id: animalId, application_id: applicationId },
            actor: c.actor,
          });
        }
        adoptions.push((await adoptionById(q, orgId, id)) as AdoptionT);
      }
      await movePaidFees(q, orgId, applicationId, adoptions);
      const warnings: WarningT[] = [];
      let closed: { id: string; person_id: string }[] = [];
      if (!b.trial) {
        await markAdopted(q, orgId, applicationId);
        closed = await closeOthers(q, orgId, applicationId, animals, c.actor);
      }
      warnings.push(...(await bondedWarnings(q, orgId, animals)));
      return { adoptions, warnings, closed };
    });
  } catch (e) {
    if (isUnique(e)) throw invalid({ animal_ids: ['the animal was adopted by another request'] });
    throw e;
  }
  result.warnings.push(...(await notifyClosed(db, c, result.closed)));
  return { results: result.adoptions, warnings: result.warnings, closed_application_ids: result.closed.map((r) => r.id) };
}

/**
 * The fee payments recorded on the application before it was finalized go to its new adoptions: each to the adoption of
 * the animal it names, else to the first. The ledger entries stay as they are; the adoptions answer them as paid.
 */
async function movePaidFees(q: Queryable, orgId: string, applicationId: string, adoptions: AdoptionT[]): Promise<void> {
  const first = adoptions[0];
  if (!first) return;
  const paid = await kx(q)
    .selectFrom('application_fee_payments as f')
    .select(['f.donation_id', 'f.animal_id'])
    .where('f.organization_id', '=', orgId)
    .where('f.application_id', '=', applicationId)
    .where(
      sql<boolean>`NOT EXISTS (SELECT 1 FROM adoption_donations x
        WHERE x.organization_id = f.organization_id AND x.donation_id = f.donation_id)`,
    )
    .execute();
  for (const p of paid) {
    const to = adoptions.find((a) => a.animal_id === p.animal_id) ?? first;
    await kx(q)
      .insertInto('adoption_donations')
      .values({ organization_id: orgId, adoption_id: to.id, donation_id: p.donation_id })
      .execute();
    const i = adoptions.indexOf(to);
    adoptions[i] = (await adoptionById(q, orgId, to.id)) as AdoptionT;
  }
}

/**
 * Records the adoption fee as paid before the application is finalized: a ledger entry from the applicant (source
 * adoption_fee; for the animal when one is applied for), kept with the application and moved to the adoption when it is
 * finalized.
 */
export async function recordApplicationFeePayment(db: Db, c: Caller, applicationId: string, b: Static<typeof FeePayment>) {
  const today = dayIn(new Date(), c.org.time_zone);
  const date = b.date ?? today;
  if (date > today) throw invalid({ date: ['must not be in the future: record a fee when it is paid'] });
  return db.tx(async (q) => {
    const app = await applicationById(q, c.org.id, applicationId, true);
    if (!app) throw notFound('adoption application');
    if (app.decision === 'adopted')
      throw invalid({
        id: ['the application was finalized: record the fee on its adoption (POST /api/animals/adoptions/{id}/fee-payments)'],
      });
    if (app.stage_kind === 'closed') throw invalid({ id: [`the application is closed (${app.stage}): no fee is due`] });
    const animalId = app.animal_ids.length === 1 ? (app.animal_ids[0] ?? null) : null;
    const names = app.animals.map((a) => a.name).join(', ');
    const donationId = newId('don');
    await insertDonation(q, c.org.id, {
      id: donationId,
      donor_id: app.person_id,
      amount_minor: BigInt(b.amount_minor),
      currency: c.org.currency,
      type: 'post-adoption',
      campaign_id: null,
      animal_id: animalId,
      payment_method: b.payment_method,
      gateway: null,
      gateway_transaction_id: null,
      date,
      notes: `Adoption fee paid with the application: ${names}${b.notes ? `. ${b.notes}` : ''}`,
      source: FEE_SOURCE,
      source_id: applicationId,
    });
    await audit(q, c.org.id, c.actor, 'create', 'donation', donationId, { adoption_application_id: applicationId, adoption_fee: true });
    await kx(q)
      .insertInto('application_fee_payments')
      .values({ organization_id: c.org.id, application_id: applicationId, donation_id: donationId, animal_id: animalId })
      .execute();
    await audit(q, c.org.id, c.actor, 'fee_paid', 'adoption_application', applicationId, {
      donation_id: donationId,
      amount_minor: b.amount_minor,
      payment_method: b.payment_method,
      date,
    });
    return {
      application: (await applicationById(q, c.org.id, applicationId)) as NonNullable<Awaited<ReturnType<typeof applicationById>>>,
      donation_id: donationId,
    };
  });
}

/** Tells the applicants of closed applications, through the template the organization chose; problems become warnings. */
async function notifyClosed(db: Db, c: Caller, closed: { id: string; person_id: string }[]): Promise<WarningT[]> {
  if (!closed.length) return [];
  const s = await kx(db)
    .selectFrom('adoption_settings')
    .select('closed_template_id')
    .where('organization_id', '=', c.org.id)
    .executeTakeFirst();
  if (!s?.closed_template_id) return [];
  if (!providersConfigured(c.config))
    return [{ code: 'applicants_not_told', message: 'sending is not configured: the applicants of the closed applications were not told' }];
  const out: WarningT[] = [];
  for (const r of closed) {
    try {
      await send(db, c.config, c.org, c.actor, c.principal, {
        idempotency_key: `adoption-closed-${r.id}`,
        person_id: r.person_id,
        template_id: s.closed_template_id,
        related_entity_type: 'adoption_application',
        related_entity_id: r.id,
        category: 'transactional',
      });
    } catch (e) {
      out.push({ code: 'applicant_not_told', message: `application ${r.id}: ${(e as Error).message}` });
    }
  }
  return out;
}

/** A trial (foster-to-adopt) becomes an adoption: the outcome is recorded now. */
export async function completeTrial(db: Db, c: Caller, id: string, occurredAt: string | undefined) {
  await ensureStayDefaults(db, c.org.id);
  const at = occurredAt ?? new Date().toISOString();
  const res = await db.tx(async (q) => {
    const peek = await adoptionById(q, c.org.id, id);
    if (!peek) throw notFound('adoption');
    await lockAnimalPlace(q, c.org.id, peek.animal_id, true);
    const a = await adoptionById(q, c.org.id, id, true);
    if (!a) throw notFound('adoption');
    if (a.status !== 'trial') throw invalid({ status: [`is ${a.status}; only a trial becomes an adoption`] });
    await checkFlags(q, c, a.person_id, undefined, a.application_id).catch(async (e: unknown) => {
      if (a.flag_override_reason) return;
      throw e;
    });
    await adoptAnimal(q, c, a.animal_id, a.person_id, at, a.application_id);
    await kx(q)
      .updateTable('adoptions')
      .set({ status: 'adopted', adopted_at: at, updated_at: sql`now()` })
      .where('organization_id', '=', c.org.id)
      .where('id', '=', id)
      .execute();
    await markAdopted(q, c.org.id, a.application_id);
    const closed = await closeOthers(q, c.org.id, a.application_id, [a.animal_id], c.actor);
    await audit(q, c.org.id, c.actor, 'adopt', 'adoption', id, { from: 'trial' });
    await recordChange(q, c.org.id, {
      event: 'adoption.finalized',
      entity: 'adoption',
      id,
      fields: { animal_id: a.animal_id, application_id: a.application_id, from: 'trial' },
      actor: c.actor,
    });
    return { adoption: (await adoptionById(q, c.org.id, id)) as AdoptionT, closed };
  });
  await notifyClosed(db, c, res.closed);
  return res.adoption;
}

/** The return window for a species, in days: the organization's setting for it, else for `*`, else 14. */
async function returnWindow(q: Queryable, orgId: string, species: string): Promise<number> {
  const s = await kx(q)
    .selectFrom('adoption_settings')
    .select('return_window_days as w')
    .where('organization_id', '=', orgId)
    .executeTakeFirst();
  const w = (s?.w as Record<string, number> | undefined) ?? { dog: 30, cat: 7, '*': 14 };
  const key = Object.keys(w).find((k) => k.toLowerCase() === species.toLowerCase());
  return (key ? w[key] : w['*']) ?? 14;
}

/**
 * Ends an adoption with a return. An adoption (`adopted`) becomes `returned` and a new intake opens (relinquished,
 * flagged as an adoption return); the adoption outcome stands and is still counted. A trial becomes `trial_ended`
 * and opens nothing: the animal never left the organization's care.
 */
export async function returnAdoption(db: Db, c: Caller, id: string, b: Static<typeof AdoptionReturn>) {
  await ensureStayDefaults(db, c.org.id);
  const at = b.occurred_at ?? new Date().toISOString();
  return db.tx(async (q) => {
    const a = await adoptionById(q, c.org.id, id, true);
    if (!a) throw notFound('adoption');
    if (a.status === 'returned' || a.status === 'trial_ended') throw invalid({ status: ['the adoption already ended with a return'] });
    if (a.status === 'trial') {
      await kx(q)
        .updateTable('adoptions')
        .set({ status: 'trial_ended', returned_at: at, return_reason: b.reason, updated_at: sql`now()` })
        .where('organization_id', '=', c.org.id)
        .where('id', '=', id)
        .execute();
      await audit(q, c.org.id, c.actor, 'return', 'adoption', id, { reason: b.reason, trial: true });
      return (await adoptionById(q, c.org.id, id)) as AdoptionT;
    }
    const adoptedAt = new Date(a.adopted_at as string | Date);
    if (new Date(at) < adoptedAt) throw invalid({ occurred_at: ['must not be before the adoption'] });
    const species = (
      await kx(q)
        .selectFrom('animal_directory')
        .select('species')
        .where('organization_id', '=', c.org.id)
        .where('id', '=', a.animal_id)
        .executeTakeFirst()
    )?.species;
    const windowDays = await returnWindow(q, c.org.id, species ?? '');
    const days = DateTime.fromISO(dayIn(at, c.org.time_zone)).diff(DateTime.fromISO(dayIn(adoptedAt, c.org.time_zone)), 'days').days;
    const stay = await recordIntakeIn(
      q,
      c.org.id,
      a.animal_id,
      {
        occurred_at: at,
        adoption_return: true,
        source_person_id: a.person_id,
        notes: `Returned after adoption ${id}: ${b.reason}${b.notes ? `\n${b.notes}` : ''}`,
      },
      c.actor,
      c.org.time_zone,
    );
    await kx(q)
      .updateTable('adoptions')
      .set({
        status: 'returned',
        returned_at: at,
        return_reason: b.reason,
        return_stay_id: stay.id,
        within_return_window: days <= windowDays,
        updated_at: sql`now()`,
      })
      .where('organization_id', '=', c.org.id)
      .where('id', '=', id)
      .execute();
    await audit(q, c.org.id, c.actor, 'return', 'adoption', id, {
      reason: b.reason,
      stay_id: stay.id,
      within_return_window: days <= windowDays,
    });
    return (await adoptionById(q, c.org.id, id)) as AdoptionT;
  });
}

/** Sets the contract of an adoption once (a signed contract of its application). */
export async function setContract(db: Db, orgId: string, id: string, contractId: string | undefined, actor: string) {
  return db.tx(async (q) => {
    const a = await adoptionById(q, orgId, id, true);
    if (!a) throw notFound('adoption');
    if (contractId === undefined || contractId === a.contract_id) return a;
    if (a.contract_id) throw invalid({ contract_id: ['the adoption already names a contract; it does not change'] });
    await checkContract(q, orgId, a.application_id, contractId);
    await kx(q)
      .updateTable('adoptions')
      .set({ contract_id: contractId, updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await audit(q, orgId, actor, 'update', 'adoption', id, { contract_id: contractId });
    return (await adoptionById(q, orgId, id)) as AdoptionT;
  });
}

/**
 * Links a donation to an adoption: an existing donation of the organization (any type), or a new post-adoption
 * donation from the adopter for the animal (amount_minor). A donation is linked to at most one adoption.
 */
export async function linkDonation(db: Db, c: Caller, id: string, b: Static<typeof DonationLink>) {
  if ((b.donation_id === undefined) === (b.amount_minor === undefined))
    throw b.donation_id === undefined
      ? missing(['donation_id'])
      : invalid({ amount_minor: ['give donation_id or amount_minor, not both'] });
  try {
    return await db.tx(async (q) => {
      const a = await adoptionById(q, c.org.id, id, true);
      if (!a) throw notFound('adoption');
      let donationId = b.donation_id;
      if (donationId) {
        const d = await kx(q)
          .selectFrom('donation_ledger')
          .select(sql<number>`1`.as('one'))
          .where('organization_id', '=', c.org.id)
          .where('id', '=', donationId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!d) throw invalid({ donation_id: ['names no donation on file'] });
      } else {
        donationId = newId('don');
        await insertDonation(q, c.org.id, {
          id: donationId,
          donor_id: a.person_id,
          amount_minor: BigInt(b.amount_minor as number),
          currency: c.org.currency,
          type: 'post-adoption',
          campaign_id: null,
          animal_id: a.animal_id,
          payment_method: b.payment_method ?? 'other',
          gateway: null,
          gateway_transaction_id: null,
          date: b.date ?? dayIn(new Date(), c.org.time_zone),
          notes: `Adoption ${id}`,
          source: 'adoption',
          source_id: id,
        });
        await audit(q, c.org.id, c.actor, 'create', 'donation', donationId, { adoption_id: id });
      }
      await kx(q)
        .insertInto('adoption_donations')
        .values({ organization_id: c.org.id, adoption_id: id, donation_id: donationId })
        .execute();
      await audit(q, c.org.id, c.actor, 'link_donation', 'adoption', id, { donation_id: donationId });
      return (await adoptionById(q, c.org.id, id)) as AdoptionT;
    });
  } catch (e) {
    if (isUnique(e)) throw invalid({ donation_id: ['the donation is already linked to an adoption'] });
    throw e;
  }
}

/**
 * Records the adoption fee as paid: an exact ledger entry (a donation of type post-adoption, source `adoption_fee`, from
 * the adopter for the animal, in the organization currency) linked to the adoption, with its audit rows, in one transaction.
 */
export async function recordFeePayment(db: Db, c: Caller, id: string, b: Static<typeof FeePayment>) {
  const today = dayIn(new Date(), c.org.time_zone);
  const date = b.date ?? today;
  if (date > today) throw invalid({ date: ['must not be in the future: record a fee when it is paid'] });
  return db.tx(async (q) => {
    const a = await adoptionById(q, c.org.id, id, true);
    if (!a) throw notFound('adoption');
    if (a.status === 'trial_ended') throw invalid({ id: ['the trial ended without an adoption: no fee is due'] });
    const donationId = newId('don');
    await insertDonation(q, c.org.id, {
      id: donationId,
      donor_id: a.person_id,
      amount_minor: BigInt(b.amount_minor),
      currency: c.org.currency,
      type: 'post-adoption',
      campaign_id: null,
      animal_id: a.animal_id,
      payment_method: b.payment_method,
      gateway: null,
      gateway_transaction_id: null,
      date,
      notes: `Adoption fee: ${a.animal_name} (adoption ${id})${b.notes ? `. ${b.notes}` : ''}`,
      source: FEE_SOURCE,
      source_id: id,
    });
    await audit(q, c.org.id, c.actor, 'create', 'donation', donationId, { adoption_id: id, adoption_fee: true });
    await kx(q).insertInto('adoption_donations').values({ organization_id: c.org.id, adoption_id: id, donation_id: donationId }).execute();
    await audit(q, c.org.id, c.actor, 'fee_paid', 'adoption', id, {
      donation_id: donationId,
      amount_minor: b.amount_minor,
      payment_method: b.payment_method,
      date,
    });
    return { adoption: (await adoptionById(q, c.org.id, id)) as AdoptionT, donation_id: donationId };
  });
}
