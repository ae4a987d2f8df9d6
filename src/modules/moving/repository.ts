import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { Kind } from './model.ts';

/** A source record's id linked to the Ark record written for it, with the fingerprint of what was written. */
export interface SourceLink {
  ext: string;
  ark_id: string;
  fingerprint: string;
}

/**
 * What is on file for these source ids of one kind: the Ark id and the fingerprint last written. With `arkId`, the
 * rows (of any source id) that name that Ark record instead.
 */
export async function lookupExternal(
  q: Queryable,
  orgId: string,
  source: string,
  kind: Kind,
  exts: string[],
  arkId?: string,
): Promise<Map<string, { ark_id: string; fingerprint: string }>> {
  const base = kx(q)
    .selectFrom('external_ids')
    .select(['external_id', 'ark_id', 'fingerprint'])
    .where('organization_id', '=', orgId)
    .where('kind', '=', kind);
  const rows =
    arkId !== undefined
      ? await base.where('ark_id', '=', arkId).execute()
      : exts.length
        ? await base.where('source', '=', source).where('external_id', '=', sql<string>`ANY(${exts}::text[])`).execute()
        : [];
  return new Map(rows.map((r) => [r.external_id, { ark_id: r.ark_id, fingerprint: r.fingerprint }]));
}

/** Which of these Ark ids already stand for a source record of this kind (any source). */
export async function linkedArkIds(q: Queryable, orgId: string, kind: Kind, arkIds: string[]): Promise<Set<string>> {
  if (!arkIds.length) return new Set();
  const rows = await kx(q)
    .selectFrom('external_ids')
    .select('ark_id')
    .where('organization_id', '=', orgId)
    .where('kind', '=', kind)
    .where('ark_id', '=', sql<string>`ANY(${arkIds}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.ark_id));
}

/** Records (or moves on) the source ids of records just written, with their fingerprints: one statement per 5,000. */
export async function recordExternal(q: Queryable, orgId: string, source: string, kind: Kind, rows: SourceLink[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const c = rows.slice(i, i + 5000);
    const [exts, arks, fps] = [c.map((r) => r.ext), c.map((r) => r.ark_id), c.map((r) => r.fingerprint)];
    await sql`
      INSERT INTO external_ids (organization_id, source, kind, external_id, ark_id, fingerprint)
      SELECT ${orgId}, ${source}, ${kind}, u.e, u.a, u.f FROM unnest(${exts}::text[], ${arks}::text[], ${fps}::text[]) AS u(e, a, f)
      ON CONFLICT (organization_id, source, kind, external_id)
      DO UPDATE SET ark_id = EXCLUDED.ark_id, fingerprint = EXCLUDED.fingerprint, updated_at = now()`.execute(kx(q));
  }
}

/** The lookup: by source and id (any kind, or one), or by the Ark record. */
export async function findExternal(
  q: Queryable,
  orgId: string,
  f: { source?: string; id?: string; kind?: string; ark_id?: string },
  limit: number,
  offset: number,
) {
  let query = kx(q)
    .selectFrom('external_ids')
    .select(['source', 'kind', 'external_id', 'ark_id', 'created_at', 'updated_at'])
    .where('organization_id', '=', orgId)
    .$narrowType<{ kind: Kind }>();
  if (f.source !== undefined) query = query.where('source', '=', f.source);
  if (f.id !== undefined) query = query.where('external_id', '=', f.id);
  if (f.kind !== undefined) query = query.where('kind', '=', f.kind);
  if (f.ark_id !== undefined) query = query.where('ark_id', '=', f.ark_id);
  return query.orderBy('source').orderBy('kind').orderBy('external_id').limit(limit).offset(offset).execute();
}
