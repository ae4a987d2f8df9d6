import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { AppError, invalid, notFound } from '../../platform/errors.ts';
import { kx, sql, type DB, type Updateable } from '../../platform/db/kysely.ts';
import { auditUpdate } from '../../platform/audit.ts';
import { partnerExists } from '../partners/public.ts';
import { personSummary } from '../people/public.ts';
import { animalCard, animalStatusList, createAnimalIn, setColourIn, type AnimalCardT } from '../animals/public.ts';
import { INTAKE_TYPES, OUTCOME_TYPES, type Kind } from './catalogue.ts';
import * as repo from './repository.ts';
import { ensureDefaults, getStay, intakeIn } from './service.ts';
import type { IntakeCorrectionT, NewAnimalIntakeT, OutcomeCorrectionT, StayT } from './schemas.ts';

/** The animals module words its field errors in Family A's names; this route's fields are snake_case. */
const FIELD_NAMES: Record<string, string> = {
  microchipNumber: 'microchip_number',
  locationId: 'location_id',
  customFields: 'custom_fields',
  dateOfBirth: 'date_of_birth',
  publicName: 'public_name',
  intakeDate: 'occurred_at',
  isPublic: 'is_public',
};
function renamed(e: unknown): unknown {
  if (!(e instanceof AppError) || !e.fields || e.status !== 422) return e;
  return invalid(Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [FIELD_NAMES[k] ?? k, v])));
}

/**
 * A new animal and its first intake in one transaction: the animal (with its chip, colour and place), then the intake
 * with every rule of POST /api/animals/{id}/intakes (type and subtype, the person or partner it came from, the status
 * mapping, the intake hooks). Nothing is kept when any part is refused.
 */
export async function intakeNewAnimal(
  db: Db,
  orgId: string,
  body: NewAnimalIntakeT,
  actor: string,
  tz: string,
): Promise<{ animal: AnimalCardT; stay: StayT }> {
  await ensureDefaults(db, orgId);
  const intakeDate = DateTime.fromISO(body.occurred_at, { setZone: true }).setZone(tz).toISODate();
  if (!intakeDate) throw invalid({ occurred_at: ['must be a date-time with its offset'] });
  if (DateTime.fromISO(body.occurred_at) > DateTime.now().plus({ minutes: 5 }))
    throw invalid({ occurred_at: ['must not be in the future'] });
  const stay = await db.tx(async (q) => {
    const status = body.status ?? (await animalStatusList(q, orgId))[0]?.name ?? 'Intake';
    let animal: { id: string };
    try {
      animal = await createAnimalIn(
        q,
        orgId,
        {
          name: body.name,
          publicName: body.public_name,
          species: body.species,
          status,
          intakeDate,
          breed: body.breed?.trim() ? body.breed.trim() : null,
          sex: body.sex,
          dateOfBirth: body.date_of_birth ?? null,
          microchipNumber: body.microchip_number?.trim() ? body.microchip_number : null,
          locationId: body.location_id ?? null,
          isPublic: body.is_public,
          customFields: body.custom_fields,
        },
        actor,
        tz,
      );
    } catch (e) {
      throw renamed(e);
    }
    await setColourIn(q, orgId, animal.id, body.colour?.trim() ? body.colour.trim() : null);
    return intakeIn(
      q,
      orgId,
      animal.id,
      {
        occurred_at: body.occurred_at,
        type: body.type,
        subtype_id: body.subtype_id,
        source_person_id: body.source_person_id,
        source_organization: body.source_organization,
        source_partner_id: body.source_partner_id,
        found_at: body.found_at,
        condition: body.condition,
        age_weeks: body.age_weeks,
        age_estimated: body.age_estimated,
        notes: body.notes,
      },
      actor,
      tz,
    );
  });
  return { animal: await animalCard(db, orgId, stay.animal_id), stay };
}

const blank = (s: string | null | undefined): string | null | undefined =>
  s === undefined ? undefined : s === null || s.trim() === '' ? null : s.trim();

/** The columns a correction may change, by kind: wire field → column. */
/** Each correctable field's column (a column of the stay as read and as written). */
const COLUMNS: Record<Kind, Record<string, keyof repo.StayRow & keyof Updateable<DB['animal_stays']>>> = {
  intake: {
    occurred_at: 'intake_at',
    type: 'intake_type',
    subtype_id: 'intake_subtype_id',
    source_person_id: 'source_person_id',
    source_organization: 'source_organization',
    source_partner_id: 'source_partner_id',
    found_at: 'found_at',
    condition: 'condition',
    age_weeks: 'age_weeks',
    age_estimated: 'age_estimated',
    notes: 'intake_notes',
  },
  outcome: {
    occurred_at: 'outcome_at',
    type: 'outcome_type',
    subtype_id: 'outcome_subtype_id',
    destination_person_id: 'destination_person_id',
    destination_organization: 'destination_organization',
    destination_partner_id: 'destination_partner_id',
    reason: 'outcome_reason',
    notes: 'outcome_notes',
  },
};

/**
 * Corrects a recorded intake or outcome: the stay row locked, every rule of recording it checked again against the
 * corrected values (a subtype of the type, a person or a partner on file and not both, the times in order with the
 * animal's other stays), and an activity row with each changed field's value before and after. The animal's status
 * is not moved again: a correction fixes the record, it is not a new event.
 */
export async function correctRecord(
  db: Db,
  orgId: string,
  stayId: string,
  kind: Kind,
  body: IntakeCorrectionT | OutcomeCorrectionT,
  actor: string,
  tz: string,
): Promise<StayT> {
  await ensureDefaults(db, orgId);
  return db.tx(async (q) => {
    const stay = await repo.getStay(q, orgId, stayId, true);
    if (!stay) throw notFound('stay');
    if (kind === 'outcome' && stay.outcome_at === null) throw invalid({ outcome: ['the stay has no outcome yet'] });
    const cols = COLUMNS[kind];
    const before: Record<string, unknown> = {};
    for (const [field, col] of Object.entries(cols)) before[field] = (stay as unknown as Record<string, unknown>)[col];
    const sent = body as Record<string, unknown>;
    const after: Record<string, unknown> = { ...before };
    for (const field of Object.keys(cols)) {
      if (sent[field] === undefined) continue;
      const v = sent[field];
      after[field] = typeof v === 'string' && field !== 'occurred_at' && field !== 'type' && field !== 'condition' ? blank(v) : v;
    }
    await checkCorrection(q, orgId, stay, kind, before, after, sent);
    const changed = Object.keys(cols).filter((f) => JSON.stringify(norm(before[f])) !== JSON.stringify(norm(after[f])));
    if (changed.length) {
      const set = Object.fromEntries(changed.map((f) => [cols[f], after[f]])) as Updateable<DB['animal_stays']>;
      await kx(q)
        .updateTable('animal_stays')
        .set({ ...set, updated_at: sql`now()` })
        .where('organization_id', '=', orgId)
        .where('id', '=', stayId)
        .execute();
      await auditUpdate(q, orgId, actor, `animal_${kind}`, stayId, before, after, changed);
    }
    return getStay(q, orgId, stayId, tz);
  });
}

const norm = (v: unknown) =>
  v instanceof Date ? v.toISOString() : typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) ? new Date(v).toISOString() : v;

async function checkCorrection(
  q: Queryable,
  orgId: string,
  stay: repo.StayRow,
  kind: Kind,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  sent: Record<string, unknown>,
) {
  const type = after.type as string;
  const categories: readonly string[] = kind === 'intake' ? INTAKE_TYPES : OUTCOME_TYPES;
  if (!categories.includes(type)) throw invalid({ type: [`must be one of ${categories.join(', ')}`] });
  if (kind === 'intake' && stay.adoption_return && type !== 'relinquished')
    throw invalid({ type: ['a return after adoption is a relinquished intake'] });
  // A new type without a subtype sent drops a subtype of the old type; a subtype given must be of the (new) type.
  const subtypeId = after.subtype_id as string | null;
  if (subtypeId) {
    const subtype = await repo.getSubtype(q, orgId, subtypeId);
    if (!subtype || subtype.kind !== kind)
      throw invalid({ subtype_id: [`no ${kind} subtype ${subtypeId} (see GET /api/animals/stay-subtypes)`] });
    if (subtype.category !== type) {
      if (sent.subtype_id === undefined) after.subtype_id = null;
      else throw invalid({ subtype_id: [`the subtype ${subtype.name} belongs to ${subtype.category}, not ${type}`] });
    } else if (subtype.retired && subtypeId !== before.subtype_id)
      throw invalid({ subtype_id: [`the subtype ${subtype.name} is retired`] });
  }
  const side = kind === 'intake' ? 'source' : 'destination';
  const personId = after[`${side}_person_id`] as string | null;
  const partnerId = after[`${side}_partner_id`] as string | null;
  const orgName = after[`${side}_organization`] as string | null;
  if (personId && personId !== before[`${side}_person_id`] && !(await personSummary(q, orgId, personId)))
    throw invalid({ [`${side}_person_id`]: [`no person ${personId} on file`] });
  if (partnerId && partnerId !== before[`${side}_partner_id`] && !(await partnerExists(q, orgId, partnerId)))
    throw invalid({ [`${side}_partner_id`]: ['names no partner of this organization'] });
  if (personId && partnerId) throw invalid({ [`${side}_partner_id`]: ['give a person or a partner, not both'] });
  if (personId && orgName) throw invalid({ [`${side}_organization`]: [`give a ${side} person or a ${side} organization, not both`] });
  // Times stay in order: intake ≤ outcome, and no overlap with the animal's other stays.
  const at = new Date(after.occurred_at as string | Date);
  const stays = await repo.staysOf(q, orgId, stay.animal_id, null);
  const i = stays.findIndex((s) => s.id === stay.id);
  const newer = i > 0 ? stays[i - 1] : undefined;
  const older = stays[i + 1];
  if (kind === 'intake') {
    if (stay.outcome_at && at > stay.outcome_at)
      throw invalid({ occurred_at: [`must not be after the stay's outcome (${stay.outcome_at.toISOString()})`] });
    if (older?.outcome_at && at < older.outcome_at)
      throw invalid({ occurred_at: [`must not be before the previous stay's outcome (${older.outcome_at.toISOString()})`] });
  } else {
    if (at < stay.intake_at) throw invalid({ occurred_at: [`must not be before the stay's intake (${stay.intake_at.toISOString()})`] });
    if (newer && at > newer.intake_at)
      throw invalid({ occurred_at: [`must not be after the next stay's intake (${newer.intake_at.toISOString()})`] });
  }
  if (at.getTime() > Date.now() + 5 * 60_000) throw invalid({ occurred_at: ['must not be in the future'] });
  after.occurred_at = at.toISOString();
}
