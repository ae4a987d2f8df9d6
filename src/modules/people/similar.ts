/**
 * People on file who look like one being entered (before saving) or like a person on file: the same email (primary or an
 * email contact, any case), the same phone (E.164 after reading it with the organization's country; primary or a phone
 * contact), or a similar full name (pg_trgm similarity at least SIMILAR_NAME, the duplicates list's threshold).
 */
import type { Db } from '../../platform/db/db.ts';
import { invalid } from '../../platform/errors.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { SIMILAR_NAME } from './duplicates.ts';
import { requireLivePerson } from './live.ts';

export interface SimilarQuery {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  person_id?: string;
}
export interface SimilarPerson {
  id: string;
  display_name: string;
  email: string;
  phone: string | null;
  roles: string[];
  reasons: ('same_email' | 'same_phone' | 'similar_name')[];
  name_similarity: number;
  created_at: Date;
}

export async function similarPeople(db: Db, org: { id: string; country: string }, f: SimilarQuery): Promise<SimilarPerson[]> {
  let { first_name = '', last_name = '', email = '', phone = '' } = f;
  if (f.person_id) {
    if (first_name || last_name || email || phone)
      throw invalid({ person_id: ['give person_id, or the fields of someone being entered, not both'] });
    const p = await requireLivePerson(db, org.id, f.person_id);
    ({ first_name, last_name, email } = p);
    phone = p.phone ?? '';
  }
  const name = `${first_name} ${last_name}`.trim().toLowerCase();
  const mail = email.trim().toLowerCase();
  const tel = phone.trim() ? normalizePhone(phone.trim(), org.country) : null;
  if (!name && !mail && !tel) return [];
  return db.tx(async (q) => {
    await q.query(`SET LOCAL pg_trgm.similarity_threshold = ${SIMILAR_NAME}`);
    const rows = await q.query<Omit<SimilarPerson, 'reasons'> & { same_email: boolean; same_phone: boolean; similar: boolean }>(
      `WITH cand AS (
         SELECT p.id, p.first_name, p.last_name, p.email, p.phone, p.roles, p.created_at,
                lower(trim(p.first_name || ' ' || p.last_name)) AS name
           FROM people p WHERE p.organization_id = $1 AND p.deleted_at IS NULL AND p.id IS DISTINCT FROM $5)
       SELECT c.id, trim(c.first_name || ' ' || c.last_name) AS display_name, c.email, c.phone, c.roles, c.created_at,
              ($2 <> '' AND (lower(c.email) = $2 OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = $1
                 AND k.person_id = c.id AND k.kind = 'email' AND lower(k.value) = $2))) AS same_email,
              ($3::text IS NOT NULL AND (c.phone = $3 OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = $1
                 AND k.person_id = c.id AND k.kind = 'phone' AND k.value = $3))) AS same_phone,
              ($4 <> '' AND c.name % $4) AS similar,
              CASE WHEN $4 <> '' THEN similarity(c.name, $4)::float8 ELSE 0 END AS name_similarity
         FROM cand c
        WHERE ($2 <> '' AND (lower(c.email) = $2 OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = $1
                 AND k.person_id = c.id AND k.kind = 'email' AND lower(k.value) = $2)))
           OR ($3::text IS NOT NULL AND (c.phone = $3 OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = $1
                 AND k.person_id = c.id AND k.kind = 'phone' AND k.value = $3)))
           OR ($4 <> '' AND c.name % $4)
        ORDER BY 6 DESC, 7 DESC, name_similarity DESC, c.created_at, c.id
        LIMIT 10`,
      [org.id, mail, tel, name, f.person_id ?? null],
    );
    const dismissed = f.person_id
      ? new Set(
          (
            await q.query<{ other: string }>(
              `SELECT CASE WHEN person_a = $2 THEN person_b ELSE person_a END AS other FROM person_duplicate_dismissals
                WHERE organization_id = $1 AND (person_a = $2 OR person_b = $2)`,
              [org.id, f.person_id],
            )
          ).map((r) => r.other),
        )
      : new Set<string>();
    return rows
      .filter((r) => !dismissed.has(r.id))
      .map(({ same_email, same_phone, similar, ...r }) => ({
        ...r,
        name_similarity: Math.round(r.name_similarity * 1000) / 1000,
        reasons: [
          ...(same_email ? (['same_email'] as const) : []),
          ...(same_phone ? (['same_phone'] as const) : []),
          ...(similar ? (['similar_name'] as const) : []),
        ],
      }));
  });
}
