import type { Queryable } from './db/db.ts';

/** One row per change, written inside the same transaction as the change. */
export async function audit(
  q: Queryable,
  orgId: string,
  actor: string | null,
  action: string,
  entityType: string,
  entityId: string,
  detail?: unknown,
) {
  await q.query('INSERT INTO audit_log (organization_id, actor, action, entity_type, entity_id, detail) VALUES ($1,$2,$3,$4,$5,$6)', [
    orgId,
    actor,
    action,
    entityType,
    entityId,
    detail === undefined ? null : JSON.stringify(detail),
  ]);
}

/** What changed in one field: its value before and after the write. */
export interface FieldChange {
  before: unknown;
  after: unknown;
}
/**
 * The detail of an 'update' row that carries before/after values: `{ fields: [...], changes: { field: {before, after} } }`
 * for every field in `fields` whose value differs (dates compared as ISO strings). Older rows name only the fields
 * (an array of names, or the body sent); the activity list reads both shapes.
 */
export function changesOf(beforeRow: object, afterRow: object, fields: string[]) {
  const before = beforeRow as Record<string, unknown>;
  const after = afterRow as Record<string, unknown>;
  const norm = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);
  const changes: Record<string, FieldChange> = {};
  for (const f of fields) {
    const b = norm(before[f]);
    const a = norm(after[f]);
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[f] = { before: b, after: a };
  }
  return { fields: Object.keys(changes), changes };
}

/** An 'update' audit row with before/after values of the named fields (see changesOf). */
export async function auditUpdate(
  q: Queryable,
  orgId: string,
  actor: string | null,
  entityType: string,
  entityId: string,
  before: object,
  after: object,
  fields: string[],
  action = 'update',
) {
  await audit(q, orgId, actor, action, entityType, entityId, changesOf(before, after, fields));
}

/** Columns whose change an audit row does not repeat: they change with every write. */
const BOOKKEEPING = new Set(['updated_at', 'created_at', 'organization_id', 'id']);

/**
 * An 'update' audit row with before/after values of every column that changed between two versions of a row (the
 * row as read before the write, the row as written); bookkeeping columns (updated_at …) left out.
 */
export async function auditChanges(
  q: Queryable,
  orgId: string,
  actor: string | null,
  entityType: string,
  entityId: string,
  before: object,
  afterRow: object | null | undefined,
  action = 'update',
) {
  const after = afterRow ?? before;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !BOOKKEEPING.has(f));
  await audit(q, orgId, actor, action, entityType, entityId, changesOf(before, after, fields));
}
