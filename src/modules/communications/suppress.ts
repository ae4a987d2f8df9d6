import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { BULK_CATEGORIES, CATEGORIES, type Category } from './schemas.ts';

export interface SuppressionHit { scope: 'platform' | 'organization'; reason: string }
export interface SuppressionRow { id: string; address: string; reason: string; source: string; created_at: Date }

export const norm = (address: string) => address.trim().toLowerCase();

/** Platform-wide first (it applies to every organization), then the organization's own list. */
export async function suppressionFor(q: Queryable, orgId: string, address: string): Promise<SuppressionHit | null> {
  const a = norm(address);
  const p = (await q.query<{ reason: string }>('SELECT reason FROM comm_platform_suppressions WHERE address = $1', [a]))[0];
  if (p) return { scope: 'platform', reason: p.reason };
  const o = (await q.query<{ reason: string }>('SELECT reason FROM comm_suppressions WHERE organization_id = $1 AND address = $2', [orgId, a]))[0];
  return o ? { scope: 'organization', reason: o.reason } : null;
}

export async function optedOut(q: Queryable, orgId: string, personId: string | null, category: string): Promise<boolean> {
  if (!personId || !BULK_CATEGORIES.includes(category as Category)) return false;
  const r = await q.query<{ opted_out: boolean }>('SELECT opted_out FROM comm_contact_preferences WHERE organization_id = $1 AND person_id = $2 AND category = $3', [orgId, personId, category]);
  return r[0]?.opted_out === true;
}

export async function listSuppressions(q: Queryable, orgId: string, f: { address?: string; limit: number; offset: number }) {
  return q.query<SuppressionRow>(
    `SELECT id, address, reason, source, created_at FROM comm_suppressions WHERE organization_id = $1 AND ($2::text IS NULL OR address = $2)
      ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`, [orgId, f.address ? norm(f.address) : null, f.limit + 1, f.offset],
  );
}

/** Adds an address (idempotent: an address already listed keeps its first reason). */
export async function addSuppression(q: Queryable, orgId: string, actor: string | null, address: string, reason: string, source: string) {
  const a = norm(address);
  const made = await q.query<SuppressionRow>(
    `INSERT INTO comm_suppressions (organization_id, id, address, reason, source) VALUES ($1,$2,$3,$4,$5) ON CONFLICT (organization_id, address) DO NOTHING
     RETURNING id, address, reason, source, created_at`, [orgId, newId('sup'), a, reason, source],
  );
  if (made[0]) {
    await audit(q, orgId, actor, 'create', 'suppression', made[0].id, { address: a, reason, source });
    return { row: made[0], created: true };
  }
  const row = (await q.query<SuppressionRow>('SELECT id, address, reason, source, created_at FROM comm_suppressions WHERE organization_id = $1 AND address = $2', [orgId, a]))[0];
  return { row, created: false };
}

export async function removeSuppression(q: Queryable, orgId: string, actor: string, id: string) {
  const rows = await q.query<{ address: string }>('DELETE FROM comm_suppressions WHERE organization_id = $1 AND id = $2 RETURNING address', [orgId, id]);
  if (!rows[0]) throw notFound('suppression');
  await audit(q, orgId, actor, 'delete', 'suppression', id, { address: rows[0].address });
}

/** Platform list: only the CLI and hard bounces write here. */
export async function addPlatformSuppression(q: Queryable, address: string, reason: string, source: 'cli' | 'hard_bounce') {
  await q.query('INSERT INTO comm_platform_suppressions (address, reason, source) VALUES ($1,$2,$3) ON CONFLICT (address) DO NOTHING', [norm(address), reason, source]);
}
export async function removePlatformSuppression(q: Queryable, address: string) {
  return (await q.query('DELETE FROM comm_platform_suppressions WHERE address = $1 RETURNING address', [norm(address)])).length > 0;
}
export async function listPlatformSuppressions(q: Queryable) {
  return q.query<{ address: string; reason: string; source: string; created_at: Date }>('SELECT address, reason, source, created_at FROM comm_platform_suppressions ORDER BY created_at DESC');
}

export async function preferencesOf(q: Queryable, orgId: string, personId: string) {
  const person = await q.query('SELECT 1 FROM people WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL', [orgId, personId]);
  if (!person.length) throw notFound('person');
  const rows = await q.query<{ category: string; opted_out: boolean; source: string; updated_at: Date }>(
    'SELECT category, opted_out, source, updated_at FROM comm_contact_preferences WHERE organization_id = $1 AND person_id = $2', [orgId, personId],
  );
  return {
    person_id: personId,
    preferences: CATEGORIES.map((c) => {
      const r = rows.find((x) => x.category === c);
      return { category: c, opted_out: r?.opted_out ?? false, source: r?.source ?? null, updated_at: r?.updated_at ?? null, can_opt_out: c !== 'transactional' };
    }),
  };
}

export async function setPreference(q: Queryable, orgId: string, actor: string | null, personId: string, category: string, optedOutValue: boolean, source: string) {
  if (!BULK_CATEGORIES.includes(category as Category)) throw invalid({ category: ['transactional mail (receipts, application updates) cannot be opted out of'] });
  await q.query(
    `INSERT INTO comm_contact_preferences (organization_id, person_id, category, opted_out, source) VALUES ($1,$2,$3,$4,$5)
     ON CONFLICT (organization_id, person_id, category) DO UPDATE SET opted_out = EXCLUDED.opted_out, source = EXCLUDED.source,
       updated_at = CASE WHEN comm_contact_preferences.opted_out = EXCLUDED.opted_out THEN comm_contact_preferences.updated_at ELSE now() END`,
    [orgId, personId, category, optedOutValue, source],
  );
  await audit(q, orgId, actor, optedOutValue ? 'opt_out' : 'opt_in', 'person', personId, { category, source });
}
