import type { Queryable } from '../../platform/db/db.ts';

export interface FormRow {
  id: string;
  slug: string;
  name: string;
  purpose: string;
  description: string;
  status: string;
  fields: { key: string; label: string; type: string; required: boolean; help_text: string; options: string[]; section: string }[];
  min_fill_seconds: number;
  max_per_address_per_hour: number;
  created_at: Date;
  updated_at: Date;
}
const FORM_COLS =
  'id, slug, name, purpose, description, status, fields, min_fill_seconds, max_per_address_per_hour, created_at, updated_at';

export async function insertForm(q: Queryable, orgId: string, f: Omit<FormRow, 'created_at' | 'updated_at'>): Promise<FormRow> {
  const rows = await q.query<FormRow>(
    `INSERT INTO forms (organization_id, id, slug, name, purpose, description, status, fields, min_fill_seconds, max_per_address_per_hour)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING ${FORM_COLS}`,
    [
      orgId,
      f.id,
      f.slug,
      f.name,
      f.purpose,
      f.description,
      f.status,
      JSON.stringify(f.fields),
      f.min_fill_seconds,
      f.max_per_address_per_hour,
    ],
  );
  return rows[0] as FormRow;
}
export async function getForm(q: Queryable, orgId: string, id: string, lock = false): Promise<FormRow | null> {
  return (
    (
      await q.query<FormRow>(`SELECT ${FORM_COLS} FROM forms WHERE organization_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
}
export async function formBySlug(q: Queryable, orgId: string, slug: string): Promise<FormRow | null> {
  return (await q.query<FormRow>(`SELECT ${FORM_COLS} FROM forms WHERE organization_id = $1 AND slug = $2`, [orgId, slug]))[0] ?? null;
}
export async function slugTaken(q: Queryable, orgId: string, slug: string, exceptId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM forms WHERE organization_id = $1 AND slug = $2 AND id <> $3', [orgId, slug, exceptId])).length > 0;
}
export async function listForms(q: Queryable, orgId: string, f: { status?: string; purpose?: string; limit: number; offset: number }) {
  const w = ['organization_id = $1'];
  const p: unknown[] = [orgId];
  if (f.status) {
    p.push(f.status);
    w.push(`status = $${p.length}`);
  }
  if (f.purpose) {
    p.push(f.purpose);
    w.push(`purpose = $${p.length}`);
  }
  p.push(f.limit + 1, f.offset);
  return q.query<FormRow>(
    `SELECT ${FORM_COLS} FROM forms WHERE ${w.join(' AND ')} ORDER BY lower(name), id LIMIT $${p.length - 1} OFFSET $${p.length}`,
    p,
  );
}
export async function updateForm(q: Queryable, orgId: string, id: string, set: Record<string, unknown>): Promise<FormRow> {
  const cols = Object.keys(set);
  const vals = Object.entries(set).map(([k, v]) => (k === 'fields' ? JSON.stringify(v) : v));
  const rows = await q.query<FormRow>(
    `UPDATE forms SET ${cols.map((c, i) => `${c} = $${i + 3}`).join(', ')}, updated_at = now() WHERE organization_id = $1 AND id = $2
      RETURNING ${FORM_COLS}`,
    [orgId, id, ...vals],
  );
  return rows[0] as FormRow;
}
export async function submissionCount(q: Queryable, orgId: string, formId: string): Promise<number> {
  return Number(
    (
      await q.query<{ n: string }>('SELECT count(*) AS n FROM form_submissions WHERE organization_id = $1 AND form_id = $2', [
        orgId,
        formId,
      ])
    )[0]?.n ?? 0,
  );
}
export async function deleteForm(q: Queryable, orgId: string, id: string) {
  await q.query('DELETE FROM forms WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

export interface SubmissionRow {
  id: string;
  form_id: string;
  form_purpose: string;
  answers: Record<string, unknown>;
  status: string;
  person_id: string | null;
  application_id: string | null;
  animal_ids: string[];
  created_at: Date;
  converted_at: Date | null;
}
const SUB_COLS = `s.id, s.form_id, f.purpose AS form_purpose, s.answers, s.status, s.person_id, s.application_id, s.animal_ids,
  s.created_at, s.converted_at`;
const SUB_FROM = 'form_submissions s JOIN forms f ON f.organization_id = s.organization_id AND f.id = s.form_id';

export async function insertSubmission(
  q: Queryable,
  orgId: string,
  id: string,
  formId: string,
  answers: unknown,
  addressHash: string,
  animalIds: string[] = [],
) {
  await q.query(
    'INSERT INTO form_submissions (organization_id, id, form_id, answers, address_hash, animal_ids) VALUES ($1,$2,$3,$4,$5,$6)',
    [orgId, id, formId, JSON.stringify(answers), addressHash, animalIds],
  );
}
/** Submissions from one address to one form in the last hour. */
export async function recentFromAddress(q: Queryable, orgId: string, formId: string, addressHash: string): Promise<number> {
  const rows = await q.query<{ n: string }>(
    `SELECT count(*) AS n FROM form_submissions WHERE organization_id = $1 AND form_id = $2 AND address_hash = $3
        AND created_at > now() - interval '1 hour'`,
    [orgId, formId, addressHash],
  );
  return Number(rows[0]?.n ?? 0);
}
export async function getSubmission(q: Queryable, orgId: string, id: string, lock = false): Promise<SubmissionRow | null> {
  return (
    (
      await q.query<SubmissionRow>(
        `SELECT ${SUB_COLS} FROM ${SUB_FROM} WHERE s.organization_id = $1 AND s.id = $2 ${lock ? 'FOR UPDATE OF s' : ''}`,
        [orgId, id],
      )
    )[0] ?? null
  );
}
export async function listSubmissions(
  q: Queryable,
  orgId: string,
  f: { form_id?: string; status?: string; limit: number; offset: number },
) {
  const w = ['s.organization_id = $1'];
  const p: unknown[] = [orgId];
  if (f.form_id) {
    p.push(f.form_id);
    w.push(`s.form_id = $${p.length}`);
  }
  if (f.status) {
    p.push(f.status);
    w.push(`s.status = $${p.length}`);
  }
  p.push(f.limit + 1, f.offset);
  return q.query<SubmissionRow>(
    `SELECT ${SUB_COLS} FROM ${SUB_FROM} WHERE ${w.join(' AND ')}
      ORDER BY s.created_at DESC, s.id DESC LIMIT $${p.length - 1} OFFSET $${p.length}`,
    p,
  );
}
export async function setSubmission(q: Queryable, orgId: string, id: string, set: Record<string, unknown>) {
  const cols = Object.keys(set);
  await q.query(`UPDATE form_submissions SET ${cols.map((c, i) => `${c} = $${i + 3}`).join(', ')} WHERE organization_id = $1 AND id = $2`, [
    orgId,
    id,
    ...Object.values(set),
  ]);
}
