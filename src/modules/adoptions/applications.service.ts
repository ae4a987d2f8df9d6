import type { Static } from '@sinclair/typebox';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, missing, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { animalExists, PUBLIC_ANIMALS_SQL } from '../animals/public.ts';
import type { AdoptionSubmission } from '../forms/public.ts';
import { findOrCreatePerson, personExists, personFlags } from '../people/public.ts';
import { checkCustomFields } from '../customfields/public.ts';
import { animalAvailability } from '../stays/public.ts';
import { registryPersonWarnings } from '../registry/public.ts';
import type { ApplicationCreate, ApplicationPatch, ApplicationT, StageCreate, StagePatch, WarningT } from './schemas.ts';

export const DEFAULT_STAGES: [string, 'open' | 'approved' | 'closed'][] = [
  ['More info needed', 'open'],
  ['Pending vet check', 'open'],
  ['Pending home visit', 'open'],
  ['Pending adoption', 'open'],
  ['Approved', 'approved'],
  ['Denied', 'closed'],
  ['Withdrawn', 'closed'],
  ['Animal adopted', 'closed'],
];
/** The closed stage other applications move to when their animal is adopted (or the first closed stage when renamed). */
export const ADOPTED_STAGE = 'Animal adopted';

const seen = new WeakMap<object, Set<string>>();
/** The default stages are written once per organization, the first time it uses the area. */
export async function ensureDefaults(db: Db, orgId: string): Promise<void> {
  let s = seen.get(db);
  if (!s) seen.set(db, (s = new Set()));
  if (s.has(orgId)) return;
  await db.tx((q) => writeDefaults(q, orgId));
  s.add(orgId);
}
export async function writeDefaults(q: Queryable, orgId: string): Promise<void> {
  const claimed = await kx(q)
    .insertInto('adoption_defaults_seeded')
    .values({ organization_id: orgId })
    .onConflict((oc) => oc.doNothing())
    .returning('organization_id')
    .execute();
  if (!claimed.length) return;
  await kx(q)
    .insertInto('adoption_stages')
    .values(DEFAULT_STAGES.map(([name, kind], i) => ({ organization_id: orgId, id: newId('ast'), name, kind, sort_order: (i + 1) * 10 })))
    .execute();
  await kx(q)
    .insertInto('adoption_settings')
    .values({ organization_id: orgId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

type StageKind = 'open' | 'approved' | 'closed';
/** The stages of an organization as answered (`kind` narrowed to the kinds the table's check allows). */
const stageRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('adoption_stages')
    .select(['id', 'name', 'kind', 'sort_order', 'created_at', 'updated_at'])
    .where('organization_id', '=', orgId)
    .$narrowType<{ kind: StageKind }>();
export type StageRow = Awaited<ReturnType<ReturnType<typeof stageRows>['executeTakeFirstOrThrow']>>;

export async function listStages(q: Queryable, orgId: string): Promise<StageRow[]> {
  return stageRows(q, orgId).orderBy('sort_order').orderBy('name').orderBy('id').execute();
}
export async function stageById(q: Queryable, orgId: string, id: string): Promise<StageRow | null> {
  return (await stageRows(q, orgId).where('id', '=', id).executeTakeFirst()) ?? null;
}
/** The organization's stages, the default stages written first the first time it uses the area. */
export async function stagesOf(db: Db, orgId: string): Promise<StageRow[]> {
  await ensureDefaults(db, orgId);
  return listStages(db, orgId);
}
const isUnique = (e: unknown) => (e as { code?: string }).code === '23505';

export async function createStage(db: Db, orgId: string, b: Static<typeof StageCreate>, actor: string) {
  await ensureDefaults(db, orgId);
  const id = newId('ast');
  try {
    return await db.tx(async (q) => {
      const order =
        b.sort_order ??
        Number(
          (
            await kx(q)
              .selectFrom('adoption_stages')
              .select(sql<number>`coalesce(max(sort_order), 0) + 10`.as('n'))
              .where('organization_id', '=', orgId)
              .executeTakeFirst()
          )?.n ?? 10,
        );
      await kx(q)
        .insertInto('adoption_stages')
        .values({ organization_id: orgId, id, name: b.name.trim(), kind: b.kind, sort_order: order })
        .execute();
      await audit(q, orgId, actor, 'create', 'application_stage', id, b);
      return (await stageById(q, orgId, id)) as StageRow;
    });
  } catch (e) {
    if (isUnique(e)) throw invalid({ name: ['another stage has this name'] });
    throw e;
  }
}

export async function patchStage(db: Db, orgId: string, id: string, b: Static<typeof StagePatch>, actor: string) {
  try {
    return await db.tx(async (q) => {
      const cur = await stageById(q, orgId, id);
      if (!cur) throw notFound('application stage');
      // an absent field keeps its value (Kysely leaves undefined values out of SET)
      await kx(q)
        .updateTable('adoption_stages')
        .set({ name: b.name?.trim(), kind: b.kind, sort_order: b.sort_order, updated_at: sql`now()` })
        .where('organization_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      await audit(q, orgId, actor, 'update', 'application_stage', id, b);
      return (await stageById(q, orgId, id)) as StageRow;
    });
  } catch (e) {
    if (isUnique(e)) throw invalid({ name: ['another stage has this name'] });
    throw e;
  }
}

export async function deleteStage(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    const cur = await stageById(q, orgId, id);
    if (!cur) throw notFound('application stage');
    const used = await kx(q)
      .selectFrom('adoption_applications')
      .select(sql<number>`1`.as('one'))
      .where('organization_id', '=', orgId)
      .where('stage_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used) throw invalid({ id: ['applications are at this stage: move them first'] });
    await kx(q).deleteFrom('adoption_stages').where('organization_id', '=', orgId).where('id', '=', id).execute();
    await audit(q, orgId, actor, 'delete', 'application_stage', id, { name: cur.name });
  });
}

// Applications

/** The applications of an organization as answered: applicant, animals, stage, fee paid with the application. */
const applicationRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('adoption_applications as a')
    .innerJoin('adoption_stages as s', (j) => j.onRef('s.organization_id', '=', 'a.organization_id').onRef('s.id', '=', 'a.stage_id'))
    .leftJoin('people_directory as p', (j) => j.onRef('p.organization_id', '=', 'a.organization_id').onRef('p.id', '=', 'a.person_id'))
    .select([
      'a.id',
      'a.person_id',
      sql<string>`coalesce(p.display_name, '')`.as('applicant_name'),
      sql<string>`coalesce(p.email, '')`.as('applicant_email'),
      sql<string[]>`coalesce((SELECT array_agg(x.animal_id ORDER BY x.position) FROM adoption_application_animals x
         WHERE x.organization_id = a.organization_id AND x.application_id = a.id), '{}')`.as('animal_ids'),
      sql<{ id: string; name: string; species: string }[]>`coalesce((SELECT json_agg(json_build_object('id', x.animal_id,
           'name', coalesce(d.name, ''), 'species', coalesce(d.species, '')) ORDER BY x.position)
         FROM adoption_application_animals x
         LEFT JOIN animal_directory d ON d.organization_id = x.organization_id AND d.id = x.animal_id
         WHERE x.organization_id = a.organization_id AND x.application_id = a.id), '[]'::json)`.as('animals'),
      'a.stage_id',
      's.name as stage',
      's.kind as stage_kind',
      'a.assigned_to',
      'a.notes',
      sql<Record<string, unknown>>`a.answers`.as('answers'),
      'a.decision',
      'a.decision_reason',
      'a.decided_at',
      'a.submission_id',
      'a.submitted_at',
      sql<number>`coalesce((SELECT sum(l.amount_minor) FROM application_fee_payments f
         JOIN donation_ledger l ON l.organization_id = f.organization_id AND l.id = f.donation_id AND l.deleted_at IS NULL
         WHERE f.organization_id = a.organization_id AND f.application_id = a.id), 0)::float8`.as('fee_paid_minor'),
      sql<string[]>`coalesce((SELECT array_agg(f.donation_id ORDER BY f.created_at, f.donation_id) FROM application_fee_payments f
         WHERE f.organization_id = a.organization_id AND f.application_id = a.id), '{}')`.as('fee_payment_ids'),
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.organization_id', '=', orgId)
    .$narrowType<{ stage_kind: StageKind; decision: ApplicationT['decision'] }>();
type AppRow = Awaited<ReturnType<ReturnType<typeof applicationRows>['executeTakeFirstOrThrow']>>;

export async function applicationById(q: Queryable, orgId: string, id: string, lock = false): Promise<AppRow | null> {
  if (
    lock &&
    !(await kx(q)
      .selectFrom('adoption_applications')
      .select('id')
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst())
  )
    return null;
  return (await applicationRows(q, orgId).where('a.id', '=', id).executeTakeFirst()) ?? null;
}
export async function getApplication(q: Queryable, orgId: string, id: string): Promise<AppRow> {
  const r = await applicationById(q, orgId, id);
  if (!r) throw notFound('adoption application');
  return r;
}

export async function listApplications(
  q: Queryable,
  orgId: string,
  f: { animal_id?: string; person_id?: string; stage_id?: string; stage_kind?: string; limit: number; offset: number },
) {
  let list = applicationRows(q, orgId);
  if (f.animal_id)
    list = list.where(
      sql<boolean>`EXISTS (SELECT 1 FROM adoption_application_animals x WHERE x.organization_id = a.organization_id AND
        x.application_id = a.id AND x.animal_id = ${f.animal_id})`,
    );
  if (f.person_id) list = list.where('a.person_id', '=', f.person_id);
  if (f.stage_id) list = list.where('a.stage_id', '=', f.stage_id);
  if (f.stage_kind) list = list.where('s.kind', '=', f.stage_kind);
  const rows = await list
    .orderBy('a.submitted_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return { results: rows.slice(0, f.limit), limit: f.limit, offset: f.offset, has_more: rows.length > f.limit };
}

/** Warnings about an applicant and the animals applied for (never refusals: those come at finalization). */
export async function applicationWarnings(q: Queryable, orgId: string, personId: string, animalIds: string[]): Promise<WarningT[]> {
  const out: WarningT[] = [];
  for (const f of await personFlags(q, orgId, personId)) {
    if (f.flag === 'banned' || f.flag === 'do not adopt')
      out.push({
        code: 'person_flagged',
        message:
          `the applicant is flagged ${f.flag}${f.reason ? ` (${f.reason})` : ''}: ` +
          'an adoption will be refused unless an admin overrides it with a reason',
      });
  }
  for (const id of animalIds) {
    const av = await animalAvailability(q, orgId, id);
    if (!av.in_care) out.push({ code: 'animal_not_in_care', message: `animal ${id} has no open stay (adopted or otherwise not in care)` });
    else if (!av.available)
      out.push({ code: 'animal_on_hold', message: `animal ${id} has a live hold: it cannot be adopted until released` });
  }
  return out;
}

async function checkAnimals(q: Queryable, orgId: string, ids: string[]): Promise<void> {
  const lost: string[] = [];
  for (const id of ids) if (!(await animalExists(q, orgId, id))) lost.push(id);
  if (lost.length) throw invalid({ animal_ids: [`names no animal on file: ${lost.join(', ')}`] });
}

export async function createApplication(
  db: Db,
  org: Organization,
  b: Static<typeof ApplicationCreate>,
  actor: string,
  registrySecret: string,
) {
  await ensureDefaults(db, org.id);
  if (b.person_id && b.applicant) throw invalid({ applicant: ['give person_id or applicant, not both'] });
  if (!b.person_id && !b.applicant) throw missing(['person_id']);
  const id = newId('apl');
  const app = await db.tx(async (q) => {
    let personId: string;
    if (b.person_id) {
      if (!(await personExists(q, org.id, b.person_id))) throw invalid({ person_id: [`no person ${b.person_id} on file`] });
      personId = b.person_id;
    } else {
      personId = (await findOrCreatePerson(q, org, b.applicant as NonNullable<typeof b.applicant>, actor)).id;
    }
    await checkAnimals(q, org.id, b.animal_ids);
    let stage: StageRow | null;
    if (b.stage_id) {
      stage = await stageById(q, org.id, b.stage_id);
      if (!stage) throw invalid({ stage_id: ['names no application stage (see GET /api/animals/application-stages)'] });
    } else {
      stage = (await listStages(q, org.id)).find((s) => s.kind === 'open') ?? null;
      if (!stage) throw invalid({ stage_id: ['the organization has no open stage: give stage_id'] });
    }
    const answers = await checkCustomFields(q, org.id, 'adoption_application', b.answers, { creating: true, prefix: 'answers' });
    await insertApplication(q, org.id, {
      id,
      personId,
      stage,
      animalIds: b.animal_ids,
      answers,
      assignedTo: b.assigned_to ?? null,
      notes: b.notes || null,
      submittedAt: b.submitted_at ?? null,
      submissionId: null,
    });
    await audit(q, org.id, actor, 'create', 'adoption_application', id, { person_id: personId, animal_ids: b.animal_ids });
    return (await applicationById(q, org.id, id)) as AppRow;
  });
  return {
    ...app,
    warnings: await applicationWarnings(db, org.id, app.person_id, app.animal_ids),
    registry_flags: await registryPersonWarnings(db, org.id, app.person_id, registrySecret),
  };
}

/** Writes an application and its animals (the caller has checked the person, the animals, the stage and the answers). */
async function insertApplication(
  q: Queryable,
  orgId: string,
  a: {
    id: string;
    personId: string;
    stage: StageRow;
    animalIds: string[];
    answers: Record<string, unknown>;
    assignedTo: string | null;
    notes: string | null;
    submittedAt: string | Date | null;
    submissionId: string | null;
  },
): Promise<void> {
  const decided = a.stage.kind === 'open' ? null : a.stage.kind === 'approved' ? 'approved' : 'closed';
  await kx(q)
    .insertInto('adoption_applications')
    .values({
      organization_id: orgId,
      id: a.id,
      person_id: a.personId,
      stage_id: a.stage.id,
      assigned_to: a.assignedTo,
      notes: a.notes,
      answers: JSON.stringify(a.answers),
      decision: decided,
      decided_at: decided === null ? null : sql<Date>`now()`,
      submitted_at: a.submittedAt ?? sql<Date>`now()`,
      submission_id: a.submissionId,
    })
    .execute();
  if (a.animalIds.length)
    await kx(q)
      .insertInto('adoption_application_animals')
      .values(a.animalIds.map((animalId, position) => ({ organization_id: orgId, application_id: a.id, animal_id: animalId, position })))
      .execute();
}

/**
 * The forms module's hook: an adoption application form's submission (sent on the public site, or converted by staff)
 * becomes an application at the first open stage, inside the submission's transaction. The animals are those chosen on
 * the public page; else the one public animal whose public name is the `animal_name` answer (any case); else none, and
 * no application is made (staff start one from the person's page). Its answers stay on the submission it names.
 */
export async function applicationFromSubmission(q: Queryable, s: AdoptionSubmission): Promise<string | null> {
  let animalIds = s.animalIds;
  if (!animalIds.length && typeof s.answers.animal_name === 'string' && s.answers.animal_name.trim()) {
    // PUBLIC_ANIMALS_SQL: the animals module's constant (code, not stored data)
    const { rows: named } = await sql<Pick<Selectable<DB['animals']>, 'id'>>`SELECT x.id FROM ${sql.raw(PUBLIC_ANIMALS_SQL)} x
      WHERE x.organization_id = ${s.orgId} AND lower(x.public_name) = lower(${s.answers.animal_name.trim()}) LIMIT 2`.execute(kx(q));
    if (named.length === 1 && named[0]) animalIds = [named[0].id];
  }
  if (!animalIds.length) return null;
  await checkAnimals(q, s.orgId, animalIds);
  await writeDefaults(q, s.orgId);
  const stage = (await listStages(q, s.orgId)).find((x) => x.kind === 'open');
  if (!stage) throw invalid({ stage_id: ['the organization has no open application stage'] });
  const id = newId('apl');
  await insertApplication(q, s.orgId, {
    id,
    personId: s.personId,
    stage,
    animalIds,
    answers: {},
    assignedTo: null,
    notes: null,
    submittedAt: s.sentAt,
    submissionId: s.submissionId,
  });
  await audit(q, s.orgId, s.actor, 'create', 'adoption_application', id, {
    person_id: s.personId,
    animal_ids: animalIds,
    from_form_submission: s.submissionId,
  });
  return id;
}

/** The decision a stage implies: none while open, approved, or for a closed stage its name (denied, withdrawn) or closed. */
export function decisionFor(stage: StageRow): ApplicationT['decision'] {
  if (stage.kind === 'open') return null;
  if (stage.kind === 'approved') return 'approved';
  const n = stage.name.trim().toLowerCase();
  return n === 'denied' || n === 'withdrawn' ? n : 'closed';
}

export async function patchApplication(db: Db, orgId: string, id: string, b: Static<typeof ApplicationPatch>, actor: string) {
  return db.tx(async (q) => {
    const cur = await applicationById(q, orgId, id, true);
    if (!cur) throw notFound('adoption application');
    let stage: StageRow | null = null;
    if (b.stage_id !== undefined && b.stage_id !== cur.stage_id) {
      if (cur.decision === 'adopted') throw invalid({ stage_id: ['the application became an adoption: its stage no longer changes'] });
      stage = await stageById(q, orgId, b.stage_id);
      if (!stage) throw invalid({ stage_id: ['names no application stage (see GET /api/animals/application-stages)'] });
    }
    const answers =
      b.answers === undefined
        ? undefined
        : await checkCustomFields(q, orgId, 'adoption_application', b.answers, {
            creating: false,
            current: cur.answers,
            prefix: 'answers',
          });
    const patch: Updateable<DB['adoption_applications']> = {};
    let decidedNow: boolean | undefined;
    if (stage) {
      patch.stage_id = stage.id;
      const d = decisionFor(stage);
      patch.decision = d;
      decidedNow = d !== null;
      if (b.decision_reason === undefined) patch.decision_reason = null;
    }
    if (b.decision_reason !== undefined) patch.decision_reason = b.decision_reason || null;
    if (b.assigned_to !== undefined) patch.assigned_to = b.assigned_to || null;
    if (b.notes !== undefined) patch.notes = b.notes || null;
    if (answers !== undefined) patch.answers = JSON.stringify({ ...cur.answers, ...answers });
    if (Object.keys(patch).length) {
      await kx(q)
        .updateTable('adoption_applications')
        .set({
          ...patch,
          ...(decidedNow === undefined ? {} : { decided_at: decidedNow ? sql<Date>`now()` : null }),
          updated_at: sql`now()`,
        })
        .where('organization_id', '=', orgId)
        .where('id', '=', id)
        .execute();
      await audit(q, orgId, actor, 'update', 'adoption_application', id, b);
    }
    return (await applicationById(q, orgId, id)) as AppRow;
  });
}

/** The applicant and the animals applied for: how a message template fills `related_entity_type: adoption_application`. */
export async function applicationParties(
  q: Queryable,
  orgId: string,
  id: string,
): Promise<{ person_id: string; animal_ids: string[] } | null> {
  const r = await applicationById(q, orgId, id);
  return r ? { person_id: r.person_id, animal_ids: r.animal_ids } : null;
}
