import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { audit, auditUpdate } from '../../platform/audit.ts';
import { AppError, conflict, invalid, notFound, type FieldErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { checkValue } from '../customfields/public.ts';
import { addRole, insertPersonIn, peopleLike, personExists, setVolunteerStatus } from '../people/public.ts';
import { registryPersonWarnings } from '../registry/public.ts';
import { PUBLIC_ANIMALS_SQL } from '../animals/public.ts';
import { normalizePhone } from '../../platform/validators.ts';
import * as repo from './repository.ts';
import type { ConvertT, FormCreateT, FormFieldT, FormPatchT, FormT, Purpose, SubmissionT } from './schemas.ts';
import { adoptionSubmissionHook } from './hooks.ts';
import { handlersOf } from '../../platform/hooks.ts';

export function toForm(r: repo.FormRow, orgSlugHost: string): FormT {
  return { ...r, purpose: r.purpose as Purpose, status: r.status as 'draft', public_url: `${orgSlugHost}/forms/${r.slug}` } as FormT;
}
export function toSubmission(r: repo.SubmissionRow): SubmissionT {
  return r as SubmissionT;
}

function normFields(fields: FormFieldT[]): repo.FormRow['fields'] {
  const errs: FieldErrors = {};
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (seen.has(f.key)) errs[`fields.${i}.key`] = [`repeats the key ${f.key}`];
    seen.add(f.key);
    const choice = f.type === 'select' || f.type === 'multiselect';
    if (choice && !f.options?.length) errs[`fields.${i}.options`] = ['is required and non-empty for select and multiselect'];
    if (!choice && f.options?.length) errs[`fields.${i}.options`] = ['must be empty for a field that is not select or multiselect'];
  });
  if (Object.keys(errs).length) throw invalid(errs);
  return fields.map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required ?? false,
    help_text: f.help_text ?? '',
    options: f.options ?? [],
    section: f.section ?? '',
  }));
}

export async function createForm(db: Db, orgId: string, actor: string, b: FormCreateT) {
  const fields = normFields(b.fields ?? []);
  return db.tx(async (q) => {
    if (await repo.slugTaken(q, orgId, b.slug, '')) throw invalid({ slug: ['is already used by another form'] });
    const f = await repo.insertForm(q, orgId, {
      id: newId('frm'),
      slug: b.slug,
      name: b.name,
      purpose: b.purpose,
      description: b.description ?? '',
      status: b.status ?? 'draft',
      fields,
      min_fill_seconds: b.min_fill_seconds ?? 3,
      max_per_address_per_hour: b.max_per_address_per_hour ?? 5,
    });
    await audit(q, orgId, actor, 'create', 'form', f.id, { name: f.name, purpose: f.purpose });
    return f;
  });
}

export async function updateForm(db: Db, orgId: string, actor: string, id: string, b: FormPatchT) {
  const fields = b.fields ? normFields(b.fields) : undefined;
  return db.tx(async (q) => {
    const cur = await repo.getForm(q, orgId, id, true);
    if (!cur) throw notFound('form');
    if (b.slug !== undefined && (await repo.slugTaken(q, orgId, b.slug, id))) throw invalid({ slug: ['is already used by another form'] });
    if (b.purpose !== undefined && b.purpose !== cur.purpose && (await repo.submissionCount(q, orgId, id)) > 0)
      throw invalid({ purpose: ['cannot change once the form has submissions'] });
    const set: Record<string, unknown> = { ...b };
    if (fields) set.fields = fields;
    if (!Object.keys(set).length) return cur;
    const after = await repo.updateForm(q, orgId, id, set);
    await auditUpdate(q, orgId, actor, 'form', id, cur, after, Object.keys(set));
    return after;
  });
}

/** A form with submissions is kept (close it instead): 422. */
export async function deleteForm(db: Db, orgId: string, actor: string, id: string) {
  await db.tx(async (q) => {
    const cur = await repo.getForm(q, orgId, id, true);
    if (!cur) throw notFound('form');
    if ((await repo.submissionCount(q, orgId, id)) > 0) throw invalid({ id: ['has submissions: close the form instead of deleting it'] });
    await repo.deleteForm(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'form', id, { name: cur.name });
  });
}

// ---- The public side: a start token proving when the form was opened, the honeypot, the per-address limit.

function sign(secret: string, orgId: string, formId: string, ms: number): string {
  return createHmac('sha256', `ark-form-start:${secret}`).update(`${orgId}:${formId}:${ms}`).digest('base64url').slice(0, 32);
}
export function startToken(secret: string, orgId: string, formId: string, now = Date.now()): string {
  return `${now}.${sign(secret, orgId, formId, now)}`;
}
/** When the form was opened, or null for a token that is forged, for another form, or older than a day. */
export function openedAt(secret: string, orgId: string, formId: string, token: string, now = Date.now()): number | null {
  const m = /^(\d{13})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m?.[1] || !m[2]) return null;
  const ms = Number(m[1]);
  const want = Buffer.from(sign(secret, orgId, formId, ms));
  const got = Buffer.from(m[2]);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  if (ms > now + 60_000 || now - ms > 86_400_000) return null;
  return ms;
}
export const addressHash = (orgId: string, ip: string) => createHash('sha256').update(`${orgId}:${ip}`).digest('hex');

/** Checks answers against the form: unknown keys, required fields, each value as for a custom field of its type. */
export function checkAnswers(form: repo.FormRow, answers: Record<string, unknown>, country: string): Record<string, unknown> {
  const errs: FieldErrors = {};
  const out: Record<string, unknown> = {};
  const known = new Map(form.fields.map((f) => [f.key, f]));
  for (const k of Object.keys(answers)) if (!known.has(k)) errs[`answers.${k}`] = ['is not a field of this form'];
  for (const f of form.fields) {
    const v = answers[f.key];
    const empty = v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);
    if (empty) {
      if (f.required) errs[`answers.${f.key}`] = ['is required'];
      continue;
    }
    const c = checkValue({ field_type: f.type as never, options: f.options }, typeof v === 'string' ? v.trim() : v, country);
    if (c.ok) out[f.key] = c.value;
    else errs[`answers.${f.key}`] = [c.message];
  }
  if (Object.keys(errs).length) throw invalid(errs);
  return out;
}

export type SubmitOutcome = 'stored' | 'dropped';
/**
 * A submission from the public page. The honeypot filled: dropped without a word (the sender sees success). Sent
 * sooner than min_fill_seconds after the form was opened, or with a bad start token: 422. More than
 * max_per_address_per_hour from one address to this form in the last hour: 429. The count and the insert run under
 * a transaction-scoped lock on (form, address), so concurrent submissions cannot pass the limit together.
 */
export async function submit(
  db: Db,
  org: Organization,
  secret: string,
  slug: string,
  ip: string,
  body: { answers: Record<string, unknown>; started: string; website?: string; animal_ids?: string[] },
): Promise<SubmitOutcome> {
  const form = await repo.formBySlug(db, org.id, slug);
  if (!form || form.status !== 'published') throw notFound('form');
  if (body.website && body.website.trim() !== '') return 'dropped';
  const opened = openedAt(secret, org.id, form.id, body.started);
  if (opened === null) throw invalid({ started: ['is not a start token of this form; reload the form'] });
  if (Date.now() - opened < form.min_fill_seconds * 1000)
    throw invalid({ started: ['the form was sent too quickly after it was opened; take a moment and send it again'] });
  const answers = checkAnswers(form, body.answers, org.country);
  const animalIds = body.animal_ids ?? [];
  if (animalIds.length) {
    if (form.purpose !== 'adoption_application') throw invalid({ animal_ids: ['only an adoption application form names animals'] });
    const shown = await publicAnimals(db, org.id, animalIds);
    const lost = animalIds.filter((a) => !shown.some((x) => x.id === a));
    if (lost.length) throw invalid({ animal_ids: [`names no animal shown on the public site: ${lost.join(', ')}`] });
    // The applicant never types the animal's name: a form asking for it gets the chosen animals' public names.
    const nameField = form.fields.find((f) => f.key === 'animal_name' && (f.type === 'text' || f.type === 'textarea'));
    if (nameField && answers.animal_name === undefined) answers.animal_name = shown.map((x) => x.name).join(', ');
  }
  const hash = addressHash(org.id, ip);
  await db.tx(async (q) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`form-submit:${org.id}:${form.id}:${hash}`}))`.execute(kx(q));
    if ((await repo.recentFromAddress(q, org.id, form.id, hash)) >= form.max_per_address_per_hour)
      throw new AppError('RATE_LIMITED', 'Too many submissions from this address; try again later.', undefined, 429, {
        'retry-after': '3600',
      });
    const id = newId('fsb');
    await repo.insertSubmission(q, org.id, id, form.id, answers, hash, animalIds);
    await audit(q, org.id, null, 'create', 'form_submission', id, { form_id: form.id, animal_ids: animalIds });
    // An application for chosen animals becomes an adoption application at once, in this transaction: the person with the
    // email, or a new one. Without chosen animals it waits for staff (they convert it and pick the animals).
    if (
      form.purpose === 'adoption_application' &&
      animalIds.length &&
      handlersOf(adoptionSubmissionHook).length &&
      canBecomePerson(answers)
    ) {
      const s = (await repo.getSubmission(q, org.id, id, true)) as repo.SubmissionRow;
      await convertIn(q, org, null, s, { create_new: true });
    }
  });
  return 'stored';
}

/** The public animals (live, shown on the public site) among these ids, with their public names. */
export async function publicAnimals(q: Queryable, orgId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  const rows = await sql<{ id: string; name: string }>`SELECT x.id, x.public_name AS name FROM ${sql.raw(PUBLIC_ANIMALS_SQL)} x
     WHERE x.organization_id = ${orgId} AND x.id = ANY(${ids}::text[]) ORDER BY array_position(${ids}::text[], x.id)`.execute(kx(q));
  return rows.rows;
}

const answerText = (answers: Record<string, unknown>, k: string) => {
  const v = answers[k];
  return typeof v === 'string' ? v.trim() : '';
};
/** A submission can make a person by itself when it has an email and a name. */
const canBecomePerson = (answers: Record<string, unknown>) =>
  answerText(answers, 'email') !== '' && (answerText(answers, 'first_name') !== '' || answerText(answers, 'last_name') !== '');

// ---- Staff side: matching and converting a submission.

function contactOf(answers: Record<string, unknown>, country: string) {
  const email = typeof answers.email === 'string' ? answers.email.trim() : null;
  const phone = typeof answers.phone === 'string' ? normalizePhone(answers.phone, country) : null;
  return { email: email || null, phone };
}

export async function matches(q: Queryable, org: Organization, id: string) {
  const s = await repo.getSubmission(q, org.id, id);
  if (!s) throw notFound('form submission');
  const { email, phone } = contactOf(s.answers, org.country);
  return (await peopleLike(q, org.id, email, phone)).map(({ id: person_id, ...p }) => ({ person_id, ...p }));
}

const ROLE_OF: Partial<Record<Purpose, string>> = {
  adoption_application: 'adopter',
  foster_application: 'foster',
  volunteer_application: 'volunteer',
};

/**
 * Makes the submission a person: the one named by `person_id`; else the person with the same email (email is
 * unique in an organization, so no second person can have it); else, when someone has the same phone and
 * `create_new` is not true, 409 naming them; else a new person from the answers first_name, last_name, email and
 * phone. The person gains the role the form's purpose implies. For an adoption application form the
 * registered adoption hooks then run in the same transaction and may record the application they made.
 */
export async function convert(db: Db, org: Organization, actor: string, id: string, b: ConvertT, registrySecret: string) {
  const done = await db.tx(async (q) => {
    const s = await repo.getSubmission(q, org.id, id, true);
    if (!s) throw notFound('form submission');
    if (s.status === 'converted') throw conflict(`The submission already became person ${s.person_id ?? ''}.`.replace(' .', '.'));
    const made = await convertIn(q, org, actor, s, b);
    return {
      submission: toSubmission((await repo.getSubmission(q, org.id, s.id)) as repo.SubmissionRow),
      person_id: made.personId,
      created_person: made.created,
      matched_by: made.matchedBy,
      purpose: s.form_purpose as Purpose,
    };
  });
  // Applicants are checked against the shared registry (a warning; the decision stays with staff).
  const { purpose, ...out } = done;
  const registry_flags = ROLE_OF[purpose] ? await registryPersonWarnings(db, org.id, out.person_id, registrySecret) : [];
  return { ...out, registry_flags };
}

/**
 * The conversion inside the caller's transaction (the staff's convert, or the public submission of an adoption
 * application, which has no actor and passes create_new: a same phone never stops it).
 */
async function convertIn(q: Queryable, org: Organization, actor: string | null, s: repo.SubmissionRow, b: ConvertT) {
  const { email, phone } = contactOf(s.answers, org.country);
  let personId: string;
  let created = false;
  let matchedBy: 'email' | 'phone' | 'chosen' | null = null;
  if (b.person_id) {
    if (!(await personExists(q, org.id, b.person_id))) throw invalid({ person_id: ['names no person on file'] });
    personId = b.person_id;
    matchedBy = 'chosen';
  } else {
    const like = await peopleLike(q, org.id, email, phone);
    const byEmail = like.find((p) => p.reasons.includes('same_email'));
    const byPhone = like.find((p) => p.reasons.includes('same_phone'));
    if (byEmail) {
      personId = byEmail.id;
      matchedBy = 'email';
    } else if (byPhone && !b.create_new) {
      throw conflict(
        `${byPhone.display_name} (${byPhone.id}) has the same phone: send person_id to link the submission to them, or create_new true.`,
      );
    } else {
      const first = answerText(s.answers, 'first_name');
      const last = answerText(s.answers, 'last_name');
      const errs: FieldErrors = {};
      if (!email) errs['answers.email'] = ['is needed to make a person (the form has no email answer)'];
      if (!first && !last) errs['answers.first_name'] = ['is needed to make a person (no first_name or last_name answer)'];
      if (Object.keys(errs).length) throw invalid(errs);
      personId = newId('per');
      created = true;
      await insertPersonIn(
        q,
        org.id,
        actor,
        { id: personId, first_name: first, last_name: last, email: email as string, phone, roles: [], time_zone: org.time_zone },
        { from_form_submission: s.id },
      );
    }
  }
  const role = ROLE_OF[s.form_purpose as Purpose];
  // A new volunteer from a volunteer application waits for staff to approve them.
  if (role && (await addRole(q, org.id, personId, role, actor)) && role === 'volunteer')
    await setVolunteerStatus(q, org.id, personId, 'applied', actor);
  let applicationId: string | null = null;
  if (s.form_purpose === 'adoption_application') {
    for (const { fn: hook } of handlersOf(adoptionSubmissionHook)) {
      const made = await hook(q, {
        orgId: org.id,
        submissionId: s.id,
        formId: s.form_id,
        personId,
        animalIds: s.animal_ids,
        answers: s.answers,
        actor,
        sentAt: s.created_at,
      });
      if (made) applicationId = made;
    }
  }
  await repo.setSubmission(q, org.id, s.id, {
    status: 'converted',
    person_id: personId,
    application_id: applicationId,
    converted_at: new Date(),
  });
  await audit(q, org.id, actor, 'convert', 'form_submission', s.id, {
    fields: ['status', 'person_id', 'application_id'],
    changes: {
      status: { before: s.status, after: 'converted' },
      person_id: { before: null, after: personId },
      application_id: { before: null, after: applicationId },
    },
  });
  return { personId, created, matchedBy, applicationId };
}

export async function dismiss(db: Db, orgId: string, actor: string, id: string) {
  return db.tx(async (q) => {
    const s = await repo.getSubmission(q, orgId, id, true);
    if (!s) throw notFound('form submission');
    if (s.status === 'converted') throw conflict('A submission that became a person cannot be dismissed.');
    if (s.status !== 'dismissed') {
      await repo.setSubmission(q, orgId, id, { status: 'dismissed' });
      await audit(q, orgId, actor, 'dismiss', 'form_submission', id, {
        fields: ['status'],
        changes: { status: { before: s.status, after: 'dismissed' } },
      });
    }
    return toSubmission((await repo.getSubmission(q, orgId, id)) as repo.SubmissionRow);
  });
}
