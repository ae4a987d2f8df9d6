import { partnerExists } from '../partners/public.ts';
import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { invalid, missing, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { animalExists, animalStatusList, lockAnimalPlace, setAnimalStatus, type CreatedAnimal, type HookWork } from '../animals/public.ts';
import { sql } from '../../platform/db/kysely.ts';
import { personSummary } from '../people/public.ts';
import { organizationTimeZoneSql } from '../settings/public.ts';
import { newId } from '../../platform/ids.ts';
import { ADOPTION_RETURN_SUBTYPE, DEFAULT_STATUS_MAP, DEFAULT_SUBTYPES, LIVE_OUTCOMES, type Kind, type OutcomeType } from './catalogue.ts';
import * as repo from './repository.ts';
import { liveHoldAnimals } from './holds.repository.ts';
import { liveHoldsOf } from './holds.service.ts';
import { intakeIdleForNew, intakeRecorded, outcomeRecorded } from './hooks.ts';
import type { IntakeCreateT, OutcomeCreateT, StayT } from './schemas.ts';

const seededBy = new WeakMap<object, Set<string>>();

/**
 * Every organization starts with the default subtypes and status mapping. They are written once, the first
 * time the organization uses this area (new and existing organizations alike), so later edits are its own.
 */
export async function ensureDefaults(db: Db, orgId: string): Promise<void> {
  let seen = seededBy.get(db);
  if (!seen) seededBy.set(db, (seen = new Set()));
  if (seen.has(orgId)) return;
  if (!(await repo.defaultsWritten(db, orgId))) await db.tx((q) => writeDefaults(q, orgId));
  seen.add(orgId);
}

/** Writes the defaults unless they were written before (by a concurrent request, or the sample data). */
export async function writeDefaults(q: Queryable, orgId: string): Promise<void> {
  if (!(await repo.claimDefaults(q, orgId))) return;
  const order: Record<Kind, number> = { intake: 0, outcome: 0 };
  for (const [kind, name, category] of DEFAULT_SUBTYPES) {
    order[kind] += 10;
    await repo.insertSubtype(q, orgId, { kind, name, category, sort_order: order[kind] });
  }
  const statuses = await animalStatusList(q, orgId);
  for (const kind of ['intake', 'outcome'] as const) {
    for (const [category, name] of Object.entries(DEFAULT_STATUS_MAP[kind])) {
      await repo.setMapping(q, orgId, kind, category, statuses.find((s) => s.name === name)?.id ?? null);
    }
  }
}

/** One formatter per time zone, made once: it answers a moment's calendar date there as YYYY-MM-DD. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(tz: string): Intl.DateTimeFormat {
  let f = dayFormats.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    } catch {
      f = dayFormat('UTC'); // not a zone this runtime knows: UTC, as the rest of Ark falls back
    }
    if (dayFormats.size < 1000) dayFormats.set(tz, f);
  }
  return f;
}
/** The calendar date of a moment in a time zone, as a day number (days since 1970-01-01). */
function localDayNumber(at: Date, tz: string): number {
  const f = dayFormat(tz);
  const s = f.format(at);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  let y: number;
  let mo: number;
  let d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
    [y, mo, d] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  }
  return Date.UTC(y, mo - 1, d) / 86_400_000;
}

/**
 * Calendar days from the intake's date to the outcome's date (or `now`'s), in the organization's time zone: plain
 * day numbers of the two local dates (a list page computes it for every row).
 */
export function daysInCare(intakeAt: Date, outcomeAt: Date | null, tz: string, now: Date): number {
  return Math.max(0, localDayNumber(outcomeAt ?? now, tz) - localDayNumber(intakeAt, tz));
}

export function toStay(r: repo.StayRow, tz: string, now: Date, days?: number): StayT {
  return {
    id: r.id,
    animal_id: r.animal_id,
    open: r.outcome_at === null,
    intake: {
      occurred_at: r.intake_at,
      type: r.intake_type as StayT['intake']['type'],
      subtype_id: r.intake_subtype_id,
      subtype: r.intake_subtype,
      source_person_id: r.source_person_id,
      source_organization: r.source_organization,
      source_partner_id: r.source_partner_id,
      found_at: r.found_at,
      condition: r.condition as StayT['intake']['condition'],
      age_weeks: r.age_weeks,
      age_estimated: r.age_estimated,
      adoption_return: r.adoption_return,
      notes: r.intake_notes,
      recorded_by: r.intake_by,
    },
    outcome:
      r.outcome_at === null || r.outcome_type === null
        ? null
        : {
            occurred_at: r.outcome_at,
            type: r.outcome_type as OutcomeType,
            subtype_id: r.outcome_subtype_id,
            subtype: r.outcome_subtype,
            live: LIVE_OUTCOMES.includes(r.outcome_type as OutcomeType),
            destination_person_id: r.destination_person_id,
            destination_organization: r.destination_organization,
            destination_partner_id: r.destination_partner_id,
            reason: r.outcome_reason,
            notes: r.outcome_notes,
            recorded_by: r.outcome_by,
          },
    days_in_care: days ?? daysInCare(r.intake_at, r.outcome_at, tz, now),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** A named partner must be on file, and names the organization side: not with a person. */
async function checkPartner(q: Queryable, orgId: string, field: string, id: string | null | undefined, person: string | null) {
  if (!id) return null;
  if (person) throw invalid({ [field]: ['give a person or a partner, not both'] });
  if (!(await partnerExists(q, orgId, id))) throw invalid({ [field]: ['names no partner of this organization'] });
  return id;
}

const blank = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s);

/** The subtype and category of a new intake or outcome: a subtype must be the organization's, of the kind, in use, of the type. */
async function resolveType(
  q: Queryable,
  orgId: string,
  kind: Kind,
  type: string | undefined,
  subtypeId: string | null | undefined,
): Promise<{ type: string | undefined; subtype: repo.SubtypeRow | null }> {
  if (!subtypeId) return { type, subtype: null };
  const subtype = await repo.getSubtype(q, orgId, subtypeId);
  if (!subtype || subtype.kind !== kind)
    throw invalid({ subtype_id: [`no ${kind} subtype ${subtypeId} (see GET /api/animals/stay-subtypes)`] });
  if (subtype.retired) throw invalid({ subtype_id: [`the subtype ${subtype.name} is retired`] });
  if (type !== undefined && subtype.category !== type)
    throw invalid({ subtype_id: [`the subtype ${subtype.name} belongs to ${subtype.category}, not ${type}`] });
  return { type: type ?? subtype.category, subtype };
}

async function checkPerson(q: Queryable, orgId: string, field: string, id: string | null | undefined): Promise<string | null> {
  if (!id) return null;
  if (!(await personSummary(q, orgId, id))) throw invalid({ [field]: [`no person ${id} on file`] });
  return id;
}

/** Moves the animal to the status the organization maps this category to; the status name, or null when none. */
async function applyStatus(q: Queryable, orgId: string, animalId: string, kind: Kind, category: string): Promise<string | null> {
  const map = await repo.statusMapRows(q, orgId);
  const statusId = map.find((m) => m.kind === kind && m.category === category)?.status_id;
  if (!statusId) return null;
  const status = (await animalStatusList(q, orgId)).find((s) => s.id === statusId);
  if (!status) return null;
  await setAnimalStatus(q, orgId, animalId, statusId);
  return status.name;
}

async function openStayOf(q: Queryable, orgId: string, animalId: string): Promise<repo.StayRow | null> {
  const latest = await repo.latestStay(q, orgId, animalId);
  return latest && latest.outcome_at === null ? latest : null;
}

/** Opens a stay. The animal's row is locked first, so concurrent intakes of one animal are taken one at a time. */
export async function recordIntake(db: Db, orgId: string, animalId: string, body: IntakeCreateT, actor: string, tz: string) {
  await ensureDefaults(db, orgId);
  return db.tx((q) => intakeIn(q, orgId, animalId, body, actor, tz));
}

/** recordIntake's work inside the caller's transaction (the organization's defaults must be written: ensureDefaults). */
export async function intakeIn(
  q: Queryable,
  orgId: string,
  animalId: string,
  body: IntakeCreateT,
  actor: string,
  tz: string,
): Promise<StayT> {
  {
    if (!(await lockAnimalPlace(q, orgId, animalId, true))) throw notFound('animal');
    const adoptionReturn = body.adoption_return ?? false;
    let subtypeId = body.subtype_id;
    if (adoptionReturn && subtypeId === undefined) {
      const dflt = await repo.subtypeByName(q, orgId, 'intake', ADOPTION_RETURN_SUBTYPE);
      if (dflt && !dflt.retired && dflt.category === 'relinquished') subtypeId = dflt.id;
    }
    const resolved = await resolveType(q, orgId, 'intake', body.type ?? (adoptionReturn ? 'relinquished' : undefined), subtypeId);
    const type = resolved.type;
    if (!type) throw missing(['type']);
    if (adoptionReturn && type !== 'relinquished') throw invalid({ adoption_return: ['a return after adoption is a relinquished intake'] });
    if (body.source_person_id && blank(body.source_organization))
      throw invalid({ source_organization: ['give a source person or a source organization, not both'] });
    const sourcePerson = await checkPerson(q, orgId, 'source_person_id', body.source_person_id);
    const sourcePartner = await checkPartner(q, orgId, 'source_partner_id', body.source_partner_id, sourcePerson);
    const latest = await repo.latestStay(q, orgId, animalId);
    if (latest && latest.outcome_at === null)
      throw invalid({ animal_id: ['the animal is already in care: record the outcome of its open stay first'] });
    if (latest?.outcome_at && new Date(body.occurred_at) < latest.outcome_at)
      throw invalid({ occurred_at: [`must not be before the previous stay's outcome (${latest.outcome_at.toISOString()})`] });
    if (adoptionReturn && latest?.outcome_type !== 'adoption')
      throw invalid({ adoption_return: ["the animal's last stay did not end in an adoption"] });
    const id = await repo.insertStay(q, orgId, {
      animal_id: animalId,
      intake_at: body.occurred_at,
      intake_type: type,
      intake_subtype_id: resolved.subtype?.id ?? null,
      source_person_id: sourcePerson,
      source_organization: blank(body.source_organization),
      source_partner_id: sourcePartner,
      found_at: blank(body.found_at),
      condition: body.condition ?? 'unknown',
      age_weeks: body.age_weeks ?? null,
      age_estimated: body.age_estimated ?? false,
      adoption_return: adoptionReturn,
      intake_notes: blank(body.notes),
      intake_by: actor,
    });
    const status = await applyStatus(q, orgId, animalId, 'intake', type);
    await audit(q, orgId, actor, 'intake', 'animal_stay', id, { animal_id: animalId, type, adoption_return: adoptionReturn, status });
    await recordChange(q, orgId, {
      event: 'stay.intake',
      entity: 'stay',
      id,
      fields: { animal_id: animalId, type, occurred_at: body.occurred_at, status },
      actor,
    });
    await intakeRecorded(
      q,
      orgId,
      animalId,
      DateTime.fromISO(body.occurred_at, { zone: tz }).toISODate() ?? body.occurred_at.slice(0, 10),
      actor,
    );
    return stayOrFail(q, orgId, id, tz);
  }
}

/** Closes the animal's open stay. The animal's row is locked first, so of concurrent outcomes exactly one closes it. */
export async function recordOutcome(db: Db, orgId: string, animalId: string, body: OutcomeCreateT, actor: string, tz: string) {
  await ensureDefaults(db, orgId);
  return db.tx((q) => outcomeIn(q, orgId, animalId, body, actor, tz));
}

/** recordOutcome's work inside the caller's transaction (the organization's defaults must be written: ensureDefaults). */
export async function outcomeIn(
  q: Queryable,
  orgId: string,
  animalId: string,
  body: OutcomeCreateT,
  actor: string,
  tz: string,
): Promise<StayT> {
  {
    if (!(await lockAnimalPlace(q, orgId, animalId, true))) throw notFound('animal');
    const { type, subtype } = await resolveType(q, orgId, 'outcome', body.type, body.subtype_id);
    if (!type) throw missing(['type']);
    if (body.destination_person_id && blank(body.destination_organization))
      throw invalid({ destination_organization: ['give a destination person or a destination organization, not both'] });
    const person = await checkPerson(q, orgId, 'destination_person_id', body.destination_person_id);
    const partner = await checkPartner(q, orgId, 'destination_partner_id', body.destination_partner_id, person);
    const open = await openStayOf(q, orgId, animalId);
    if (!open) throw invalid({ animal_id: ['the animal has no open stay: record an intake first'] });
    if (new Date(body.occurred_at) < open.intake_at)
      throw invalid({ occurred_at: [`must not be before the stay's intake (${open.intake_at.toISOString()})`] });
    if (type === 'adoption' && (await liveHoldAnimals(q, orgId, [animalId], body.occurred_at)).length)
      throw invalid({ type: ['the animal has a live hold at that moment: release it before recording an adoption'] });
    const closed = await repo.closeStay(q, orgId, open.id, {
      outcome_at: body.occurred_at,
      outcome_type: type,
      outcome_subtype_id: subtype?.id ?? null,
      destination_person_id: person,
      destination_organization: blank(body.destination_organization),
      destination_partner_id: partner,
      outcome_reason: blank(body.reason),
      outcome_notes: blank(body.notes),
      outcome_by: actor,
    });
    if (!closed) throw invalid({ animal_id: ['the stay was closed by another request'] });
    await outcomeRecorded(q, orgId, animalId, actor);
    const status = await applyStatus(q, orgId, animalId, 'outcome', type);
    await audit(q, orgId, actor, 'outcome', 'animal_stay', open.id, { animal_id: animalId, type, status });
    await recordChange(q, orgId, {
      event: 'stay.outcome',
      entity: 'stay',
      id: open.id,
      fields: { animal_id: animalId, type, occurred_at: body.occurred_at, status },
      actor,
    });
    return stayOrFail(q, orgId, open.id, tz);
  }
}

async function stayOrFail(q: Queryable, orgId: string, id: string, tz: string): Promise<StayT> {
  const row = await repo.getStay(q, orgId, id);
  if (!row) throw notFound('stay');
  return toStay(row, tz, new Date());
}

export async function getStay(q: Queryable, orgId: string, id: string, tz: string): Promise<StayT> {
  return stayOrFail(q, orgId, id, tz);
}

/** An animal's stays page as GET /api/animals/{id}/stays answers it: whether it is available and the holds in force now. */
export async function staysWithHolds(q: Queryable, orgId: string, animalId: string, limit: number, offset: number, tz: string) {
  const { inCare, ...page } = await listStays(q, orgId, animalId, limit, offset, tz);
  const live = await liveHoldsOf(q, orgId, animalId);
  return { ...page, available: inCare && live.length === 0, live_holds: live };
}

/** An animal's stays (newest first) with its total time in care and whether it is available. */
export async function listStays(q: Queryable, orgId: string, animalId: string, limit: number, offset: number, tz: string) {
  if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
  const now = new Date();
  const all = (await repo.staysOf(q, orgId, animalId, null)).map((r) => toStay(r, tz, now));
  const open = all.find((s) => s.open) ?? null;
  return {
    results: all.slice(offset, offset + limit),
    limit,
    offset,
    has_more: all.length > offset + limit,
    open_stay_id: open?.id ?? null,
    days_in_care_total: all.reduce((n, s) => n + s.days_in_care, 0),
    inCare: open !== null,
  };
}

/** The organization's stays in a date range (see `repo.staysBetween`), each with its animal's name and species. */
export async function staysInRange(
  q: Queryable,
  orgId: string,
  f: { from?: string; to?: string; kind?: Kind; limit: number; offset: number },
  tz: string,
) {
  if (f.from && f.to && Date.parse(f.from) >= Date.parse(f.to)) throw invalid({ to: ['must be after from'] });
  const now = new Date();
  const rows = await repo.staysBetween(q, orgId, { from: f.from ?? null, to: f.to ?? null, kind: f.kind ?? null }, f.limit, f.offset, {
    tz,
    now,
  });
  const page = rows.slice(0, f.limit);
  return {
    // Days in care come counted from the statement (a list page would otherwise format two dates per row in the zone).
    // The animal's name and species are added to the stay built, not spread into a copy of it (the copy was ~5% of the
    // list's process time).
    results: page.map((r) => {
      const stay: StayT & { animal_name?: string; animal_species?: string } = toStay(r, tz, now, r.days_in_care);
      stay.animal_name = r.animal_name;
      stay.animal_species = r.animal_species;
      return stay as StayT & { animal_name: string; animal_species: string };
    }),
    limit: f.limit,
    offset: f.offset,
    has_more: rows.length > f.limit,
  };
}

/**
 * A new animal's first stay (intake "other", condition "unknown", on its intake date at midnight in the organization's
 * zone) and that stay's audit row, as parts of the create's own statement (over its new animal row `w`); when an intake
 * hook has something to do for the new animal (an intake protocol), that runs after the statement, in the create's
 * transaction.
 */
export async function firstStay(q: Queryable, orgId: string, animal: CreatedAnimal, actor: string | null): Promise<HookWork> {
  const stay = newId('sty');
  const zone = sql.raw(organizationTimeZoneSql('w.organization_id'));
  const parts = [
    {
      body: sql`INSERT INTO animal_stays (organization_id, id, animal_id, intake_at, intake_type, condition, intake_by)
        SELECT organization_id, ${stay}::text, id, (intake_date::timestamp AT TIME ZONE ${zone}), 'other', 'unknown', ${actor}::text
          FROM w`,
    },
    {
      body: sql`INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail)
        SELECT organization_id, ${actor}::text, 'intake', 'animal_stay', ${stay}::text,
               jsonb_build_object('animal_id', id, 'type', 'other') FROM w`,
    },
  ];
  const facts = { species: animal.species, date_of_birth: animal.date_of_birth };
  if (await intakeIdleForNew(q, orgId, facts)) return { parts };
  return { parts, after: (tx) => intakeRecorded(tx, orgId, animal.id, animal.intake_date, actor, facts) };
}
