import type { Queryable } from '../../platform/db/db.ts';
import type { Kind } from './model.ts';

export interface ExternalRow {
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
  const rows =
    arkId !== undefined
      ? await q.query<{ external_id: string; ark_id: string; fingerprint: string }>(
          `SELECT external_id, ark_id, fingerprint FROM external_ids WHERE organization_id = $1 AND kind = $2 AND ark_id = $3`,
          [orgId, kind, arkId],
        )
      : exts.length
        ? await q.query<{ external_id: string; ark_id: string; fingerprint: string }>(
            `SELECT external_id, ark_id, fingerprint FROM external_ids
              WHERE organization_id = $1 AND source = $2 AND kind = $3 AND external_id = ANY($4::text[])`,
            [orgId, source, kind, exts],
          )
        : [];
  return new Map(rows.map((r) => [r.external_id, { ark_id: r.ark_id, fingerprint: r.fingerprint }]));
}

/** Records (or moves on) the source ids of records just written, with their fingerprints. */
export async function recordExternal(q: Queryable, orgId: string, source: string, kind: Kind, rows: ExternalRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    const c = rows.slice(i, i + 5000);
    await q.query(
      `INSERT INTO external_ids (organization_id, source, kind, external_id, ark_id, fingerprint)
       SELECT $1, $2, $3, u.e, u.a, u.f FROM unnest($4::text[], $5::text[], $6::text[]) AS u(e, a, f)
       ON CONFLICT (organization_id, source, kind, external_id)
       DO UPDATE SET ark_id = EXCLUDED.ark_id, fingerprint = EXCLUDED.fingerprint, updated_at = now()`,
      [orgId, source, kind, c.map((r) => r.ext), c.map((r) => r.ark_id), c.map((r) => r.fingerprint)],
    );
  }
}

export interface ExternalIdRow {
  source: string;
  kind: Kind;
  external_id: string;
  ark_id: string;
  created_at: Date;
  updated_at: Date;
}
/** The lookup: by source and id (any kind, or one), or by the Ark record. */
export async function findExternal(
  q: Queryable,
  orgId: string,
  f: { source?: string; id?: string; kind?: string; ark_id?: string },
  limit: number,
  offset: number,
): Promise<ExternalIdRow[]> {
  return q.query<ExternalIdRow>(
    `SELECT source, kind, external_id, ark_id, created_at, updated_at FROM external_ids
      WHERE organization_id = $1 AND ($2::text IS NULL OR source = $2) AND ($3::text IS NULL OR external_id = $3)
        AND ($4::text IS NULL OR kind = $4) AND ($5::text IS NULL OR ark_id = $5)
      ORDER BY source, kind, external_id LIMIT $6 OFFSET $7`,
    [orgId, f.source ?? null, f.id ?? null, f.kind ?? null, f.ark_id ?? null, limit, offset],
  );
}
