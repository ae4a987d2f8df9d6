import type { Queryable } from '../../platform/db/db.ts';

export interface AddressRow { line1: string; line2?: string | null; city: string; state?: string | null; postalCode?: string | null; country: string }
export interface PersonRow {
  id: string; first_name: string; last_name: string; email: string; phone: string | null; address: AddressRow | null;
  roles: string[]; tags: string[]; notes: string | null; time_zone: string; custom_fields: Record<string, unknown>; created_at: Date; updated_at: Date;
}
const COLS = 'id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone, custom_fields, created_at, updated_at';

export async function getPerson(q: Queryable, orgId: string, id: string): Promise<PersonRow | null> {
  return (await q.prepared<PersonRow>('person_get', `SELECT ${COLS} FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`, [orgId, id]))[0] ?? null;
}
export async function personByEmail(q: Queryable, orgId: string, email: string): Promise<PersonRow | null> {
  return (await q.query<PersonRow>(`SELECT ${COLS} FROM people WHERE organization_id = $1 AND lower(email) = lower($2) AND deleted_at IS NULL`, [orgId, email]))[0] ?? null;
}

export interface PersonFilter { roles?: string[]; email?: string; tag?: string; q?: string }
export async function listPeople(q: Queryable, orgId: string, f: PersonFilter, limit: number, offset: number) {
  const where = ['organization_id = $1', 'deleted_at IS NULL'];
  const params: unknown[] = [orgId];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.roles) where.push(`roles && ${p(f.roles)}::text[]`);
  if (f.email !== undefined) where.push(`lower(email) = lower(${p(f.email)})`);
  if (f.tag !== undefined) where.push(`${p(f.tag)} = ANY(tags)`);
  for (const term of (f.q ?? '').split(/\s+/).filter(Boolean)) {
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const ph = p(like);
    const digits = term.replace(/\D/g, '');
    const phoneDigits = digits.length >= 3 ? ` OR regexp_replace(coalesce(phone, ''), '\\D', '', 'g') LIKE ${p(`%${digits}%`)}` : '';
    where.push(`(first_name ILIKE ${ph} OR last_name ILIKE ${ph} OR email ILIKE ${ph} OR phone ILIKE ${ph}${phoneDigits})`);
  }
  const cond = where.join(' AND ');
  const [rows, count] = await Promise.all([
    q.query<PersonRow>(`SELECT ${COLS} FROM people WHERE ${cond} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`, params),
    q.query<{ n: string }>(`SELECT count(*) AS n FROM people WHERE ${cond}`, params),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

export async function insertPerson(q: Queryable, orgId: string, p: Omit<PersonRow, 'created_at' | 'updated_at' | 'custom_fields'>): Promise<void> {
  await q.query(
    `INSERT INTO people (organization_id, id, first_name, last_name, email, phone, address, roles, tags, notes, time_zone) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
    [orgId, p.id, p.first_name, p.last_name, p.email, p.phone, p.address === null ? null : JSON.stringify(p.address), p.roles, p.tags, p.notes, p.time_zone],
  );
}
export const UPDATABLE = ['first_name', 'last_name', 'email', 'phone', 'address', 'roles', 'tags', 'notes', 'time_zone'] as const;
export async function updatePerson(q: Queryable, orgId: string, id: string, patch: Partial<Record<(typeof UPDATABLE)[number], unknown>>) {
  const cols = UPDATABLE.filter((c) => c in patch);
  const values = cols.map((c) => (c === 'address' && patch[c] !== null ? JSON.stringify(patch[c]) : patch[c]));
  const sets = [...cols.map((c, i) => `${c} = $${i + 3}`), 'updated_at = now()'];
  await q.query(`UPDATE people SET ${sets.join(', ')} WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL`, [orgId, id, ...values]);
}
export async function softDeletePerson(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('UPDATE people SET deleted_at = now() WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id', [orgId, id])).length > 0;
}
