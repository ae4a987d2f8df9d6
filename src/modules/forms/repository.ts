import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';

/** A form's field as stored in its `fields` (JSON). */
export interface FormField {
  key: string;
  label: string;
  type: string;
  required: boolean;
  help_text: string;
  options: string[];
  section: string;
}
const FORM_COLS = [
  'id',
  'slug',
  'name',
  'purpose',
  'description',
  'status',
  'fields',
  'min_fill_seconds',
  'max_per_address_per_hour',
  'created_at',
  'updated_at',
] as const;
type StoredForm = Pick<Selectable<DB['forms']>, (typeof FORM_COLS)[number]>;
/** A form as read: its columns, the fields as their shape. */
export type FormRow = Omit<StoredForm, 'fields'> & { fields: FormField[] };
const toForm = (r: StoredForm): FormRow => ({ ...r, fields: r.fields as unknown as FormField[] });
const forms = (q: Queryable, orgId: string) => kx(q).selectFrom('forms').select(FORM_COLS).where('organization_id', '=', orgId);

export async function insertForm(q: Queryable, orgId: string, f: Omit<FormRow, 'created_at' | 'updated_at'>): Promise<FormRow> {
  const row = await kx(q)
    .insertInto('forms')
    .values({
      organization_id: orgId,
      id: f.id,
      slug: f.slug,
      name: f.name,
      purpose: f.purpose,
      description: f.description,
      status: f.status,
      fields: JSON.stringify(f.fields),
      min_fill_seconds: f.min_fill_seconds,
      max_per_address_per_hour: f.max_per_address_per_hour,
    })
    .returning(FORM_COLS)
    .executeTakeFirstOrThrow();
  return toForm(row);
}
export async function getForm(q: Queryable, orgId: string, id: string, lock = false): Promise<FormRow | null> {
  let one = forms(q, orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toForm(row) : null;
}
export async function formBySlug(q: Queryable, orgId: string, slug: string): Promise<FormRow | null> {
  const row = await forms(q, orgId).where('slug', '=', slug).executeTakeFirst();
  return row ? toForm(row) : null;
}
export async function slugTaken(q: Queryable, orgId: string, slug: string, exceptId: string): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('forms')
    .select('id')
    .where('organization_id', '=', orgId)
    .where('slug', '=', slug)
    .where('id', '<>', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}
export async function listForms(q: Queryable, orgId: string, f: { status?: string; purpose?: string; limit: number; offset: number }) {
  let list = forms(q, orgId);
  if (f.status) list = list.where('status', '=', f.status);
  if (f.purpose) list = list.where('purpose', '=', f.purpose);
  const rows = await list
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toForm);
}
/** The columns an update may set (the service passes the request's fields by their column names). */
const FORM_UPDATABLE = new Set<string>([
  'slug',
  'name',
  'purpose',
  'description',
  'status',
  'fields',
  'min_fill_seconds',
  'max_per_address_per_hour',
]);
export async function updateForm(q: Queryable, orgId: string, id: string, set: Record<string, unknown>): Promise<FormRow> {
  const patch: Record<string, unknown> = {};
  for (const [c, v] of Object.entries(set)) {
    if (!FORM_UPDATABLE.has(c)) throw new Error(`forms.${c} is not an updatable column`);
    patch[c] = c === 'fields' ? JSON.stringify(v) : v;
  }
  const row = await kx(q)
    .updateTable('forms')
    .set({ ...(patch as Updateable<DB['forms']>), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(FORM_COLS)
    .executeTakeFirstOrThrow();
  return toForm(row);
}
export async function submissionCount(q: Queryable, orgId: string, formId: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('form_submissions')
    .select(sql<string>`count(*)`.as('n'))
    .where('organization_id', '=', orgId)
    .where('form_id', '=', formId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function deleteForm(q: Queryable, orgId: string, id: string) {
  await kx(q).deleteFrom('forms').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

const SUB_COLS = [
  's.id',
  's.form_id',
  'f.purpose as form_purpose',
  's.answers',
  's.status',
  's.person_id',
  's.application_id',
  's.animal_ids',
  's.created_at',
  's.converted_at',
] as const;
const submissions = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('form_submissions as s')
    .innerJoin('forms as f', (j) => j.onRef('f.organization_id', '=', 's.organization_id').onRef('f.id', '=', 's.form_id'))
    .select(SUB_COLS)
    .where('s.organization_id', '=', orgId);
type StoredSubmission = Awaited<ReturnType<ReturnType<typeof submissions>['executeTakeFirstOrThrow']>>;
/** A submission as read, with its form's purpose; the answers as the object they were sent as. */
export type SubmissionRow = Omit<StoredSubmission, 'answers'> & { answers: Record<string, unknown> };
const toSubmission = (r: StoredSubmission): SubmissionRow => ({ ...r, answers: r.answers as Record<string, unknown> });

export async function insertSubmission(
  q: Queryable,
  orgId: string,
  id: string,
  formId: string,
  answers: unknown,
  addressHash: string,
  animalIds: string[] = [],
) {
  await kx(q)
    .insertInto('form_submissions')
    .values({
      organization_id: orgId,
      id,
      form_id: formId,
      answers: JSON.stringify(answers),
      address_hash: addressHash,
      animal_ids: animalIds,
    })
    .execute();
}
/** Submissions from one address to one form in the last hour. */
export async function recentFromAddress(q: Queryable, orgId: string, formId: string, addressHash: string): Promise<number> {
  const row = await kx(q)
    .selectFrom('form_submissions')
    .select(sql<string>`count(*)`.as('n'))
    .where('organization_id', '=', orgId)
    .where('form_id', '=', formId)
    .where('address_hash', '=', addressHash)
    .where(sql<boolean>`created_at > now() - interval '1 hour'`)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
export async function getSubmission(q: Queryable, orgId: string, id: string, lock = false): Promise<SubmissionRow | null> {
  let one = submissions(q, orgId).where('s.id', '=', id);
  if (lock) one = one.forUpdate(['s']);
  const row = await one.executeTakeFirst();
  return row ? toSubmission(row) : null;
}
export async function listSubmissions(
  q: Queryable,
  orgId: string,
  f: { form_id?: string; status?: string; limit: number; offset: number },
) {
  let list = submissions(q, orgId);
  if (f.form_id) list = list.where('s.form_id', '=', f.form_id);
  if (f.status) list = list.where('s.status', '=', f.status);
  const rows = await list
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toSubmission);
}
export async function setSubmission(q: Queryable, orgId: string, id: string, set: Updateable<DB['form_submissions']>) {
  await kx(q).updateTable('form_submissions').set(set).where('organization_id', '=', orgId).where('id', '=', id).execute();
}
