/**
 * People on file who look like one being entered (before saving) or like a person on file: the same email (primary or an
 * email contact, any case), the same phone (E.164 after reading it with the organization's country; primary or a phone
 * contact), or a similar full name (pg_trgm similarity at least SIMILAR_NAME, the duplicates list's threshold).
 */
import type { Db } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
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
    await sql`SET LOCAL pg_trgm.similarity_threshold = ${sql.lit(SIMILAR_NAME)}`.execute(kx(q));
    const personId = f.person_id ?? null;
    // The values compared, each bound where it is used.
    const m = sql`${mail}::text`;
    const t = sql`${tel}::text`;
    const n = sql`${name}::text`;
    const o = org.id;
    const { rows } = await sql<Omit<SimilarPerson, 'reasons'> & { same_email: boolean; same_phone: boolean; similar: boolean }>`
      WITH cand AS (
         SELECT p.id, p.first_name, p.last_name, p.email, p.phone, p.roles, p.created_at,
                lower(trim(p.first_name || ' ' || p.last_name)) AS name
           FROM people p WHERE p.organization_id = ${o} AND p.deleted_at IS NULL AND p.id IS DISTINCT FROM ${personId})
       SELECT c.id, trim(c.first_name || ' ' || c.last_name) AS display_name, c.email, c.phone, c.roles, c.created_at,
              (${m} <> '' AND (lower(c.email) = ${m} OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = ${o}
                 AND k.person_id = c.id AND k.kind = 'email' AND lower(k.value) = ${m}))) AS same_email,
              (${t} IS NOT NULL AND (c.phone = ${t} OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = ${o}
                 AND k.person_id = c.id AND k.kind = 'phone' AND k.value = ${t}))) AS same_phone,
              (${n} <> '' AND c.name % ${n}) AS similar,
              CASE WHEN ${n} <> '' THEN similarity(c.name, ${n})::float8 ELSE 0 END AS name_similarity
         FROM cand c
        WHERE (${m} <> '' AND (lower(c.email) = ${m} OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = ${o}
                 AND k.person_id = c.id AND k.kind = 'email' AND lower(k.value) = ${m})))
           OR (${t} IS NOT NULL AND (c.phone = ${t} OR EXISTS (SELECT 1 FROM person_contacts k WHERE k.organization_id = ${o}
                 AND k.person_id = c.id AND k.kind = 'phone' AND k.value = ${t})))
           OR (${n} <> '' AND c.name % ${n})
        ORDER BY 6 DESC, 7 DESC, name_similarity DESC, c.created_at, c.id
        LIMIT 10`.execute(kx(q));
    const dismissed = f.person_id
      ? new Set(
          (
            await kx(q)
              .selectFrom('person_duplicate_dismissals')
              .select(sql<string>`CASE WHEN person_a = ${f.person_id} THEN person_b ELSE person_a END`.as('other'))
              .where('organization_id', '=', org.id)
              .where((eb) => eb.or([eb('person_a', '=', f.person_id as string), eb('person_b', '=', f.person_id as string)]))
              .execute()
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
