/**
 * Likely duplicate people: pairs of live people sharing an email (primary or a contact, ignoring case), a phone
 * (E.164, primary or a contact), the same full name and postal code, or a similar full name (pg_trgm similarity at
 * least SIMILAR_NAME), each with the reasons it matched. A dismissed pair is never listed again.
 */
import { first, type Db } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { invalid } from '../../platform/errors.ts';
import { requireLivePerson } from './live.ts';

export const SIMILAR_NAME = 0.6;

export async function listDuplicates(db: Db, orgId: string, limit: number, offset: number) {
  // `%` uses the trigram index over full names (people_name_trgm) at this threshold, set for this transaction only.
  const rows = await db.tx(async (q) => {
    await sql`SET LOCAL pg_trgm.similarity_threshold = ${sql.lit(SIMILAR_NAME)}`.execute(kx(q));
    const r = await sql<{
      a: string;
      b: string;
      reasons: string[];
      sim: number;
      a_first: string;
      a_last: string;
      a_email: string;
      a_phone: string | null;
      a_created: Date;
      b_first: string;
      b_last: string;
      b_email: string;
      b_phone: string | null;
      b_created: Date;
    }>`WITH live AS MATERIALIZED (
       SELECT id, lower(trim(first_name || ' ' || last_name)) AS name,
              nullif(upper(replace(address->>'postalCode', ' ', '')), '') AS postal, created_at
         FROM people WHERE organization_id = ${orgId} AND deleted_at IS NULL),
     emails AS (
       SELECT p.id, lower(p.email) AS v FROM people p WHERE p.organization_id = ${orgId} AND p.deleted_at IS NULL
       UNION SELECT c.person_id, lower(c.value) FROM person_contacts c JOIN live l ON l.id = c.person_id
        WHERE c.organization_id = ${orgId} AND c.kind = 'email'),
     phones AS (
       SELECT p.id, p.phone AS v FROM people p WHERE p.organization_id = ${orgId} AND p.deleted_at IS NULL AND p.phone IS NOT NULL
       UNION SELECT c.person_id, c.value FROM person_contacts c JOIN live l ON l.id = c.person_id
        WHERE c.organization_id = ${orgId} AND c.kind = 'phone'),
     hits AS (
       SELECT x.id AS a, y.id AS b, 'same_email' AS reason FROM emails x JOIN emails y ON x.v = y.v AND x.id < y.id
       UNION SELECT x.id, y.id, 'same_phone' FROM phones x JOIN phones y ON x.v = y.v AND x.id < y.id
       UNION SELECT x.id, y.id, 'same_name_postal_code' FROM live x JOIN live y ON x.name = y.name AND x.postal = y.postal AND x.id < y.id
       UNION SELECT x.id, y.id, 'similar_name' FROM live x
         JOIN people y ON y.organization_id = ${orgId} AND y.deleted_at IS NULL AND x.id < y.id
                      AND lower(trim(y.first_name || ' ' || y.last_name)) % x.name),
     pairs AS (
       SELECT h.a, h.b,
              array_agg(h.reason ORDER BY array_position(ARRAY['same_email','same_phone','same_name_postal_code','similar_name'], h.reason))
                AS reasons
         FROM hits h
        WHERE NOT EXISTS (SELECT 1 FROM person_duplicate_dismissals d
                           WHERE d.organization_id = ${orgId} AND d.person_a = h.a AND d.person_b = h.b)
        GROUP BY h.a, h.b)
     SELECT pr.a, pr.b, pr.reasons, similarity(la.name, lb.name)::float8 AS sim,
            pa.first_name AS a_first, pa.last_name AS a_last, pa.email AS a_email, pa.phone AS a_phone, pa.created_at AS a_created,
            pb.first_name AS b_first, pb.last_name AS b_last, pb.email AS b_email, pb.phone AS b_phone, pb.created_at AS b_created
       FROM pairs pr JOIN live la ON la.id = pr.a JOIN live lb ON lb.id = pr.b
       JOIN people pa ON pa.organization_id = ${orgId} AND pa.id = pr.a JOIN people pb ON pb.organization_id = ${orgId} AND pb.id = pr.b
      ORDER BY cardinality(pr.reasons) DESC, sim DESC, pr.a, pr.b LIMIT ${limit + 1} OFFSET ${offset}`.execute(kx(q));
    return r.rows;
  });
  const who = (first: string, last: string, email: string, phone: string | null, created: Date, id: string) => ({
    id,
    display_name: `${first} ${last}`.trim(),
    email,
    phone,
    created_at: created,
  });
  return rows.map((r) => ({
    person_a: who(r.a_first, r.a_last, r.a_email, r.a_phone, r.a_created, r.a),
    person_b: who(r.b_first, r.b_last, r.b_email, r.b_phone, r.b_created, r.b),
    reasons: r.reasons as ('same_email' | 'same_phone' | 'same_name_postal_code' | 'similar_name')[],
    name_similarity: Math.round(r.sim * 1000) / 1000,
  }));
}

export async function dismissPair(db: Db, orgId: string, ids: string[], actor: string) {
  const [a, b] = [...ids].sort() as [string, string];
  if (a === b) throw invalid({ person_ids: ['must name two different people'] });
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, a);
    await requireLivePerson(q, orgId, b);
    const r = await kx(q)
      .insertInto('person_duplicate_dismissals')
      .values({ organization_id: orgId, person_a: a, person_b: b, dismissed_by: actor })
      .onConflict((oc) =>
        oc.columns(['organization_id', 'person_a', 'person_b']).doUpdateSet({ person_a: (eb) => eb.ref('excluded.person_a') }),
      )
      .returning(['dismissed_by', 'dismissed_at'])
      .execute();
    await audit(q, orgId, actor, 'dismiss_duplicate', 'person', a, { other: b });
    return { person_ids: [a, b], ...first(r) };
  });
}
