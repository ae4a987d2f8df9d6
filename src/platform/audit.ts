import type { Queryable } from './db/db.ts';
import { kx } from './db/kysely.ts';

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
  await kx(q)
    .insertInto('audit_log')
    .values({
      organization_id: orgId,
      actor,
      action,
      entity_type: entityType,
      entity_id: entityId,
      detail: detail === undefined ? null : JSON.stringify(detail),
    })
    .execute();
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

/** One value an audit row compares, as SQL: its name in `changes` and the expressions of its value before and after. */
export interface ChangePairSql {
  key: string;
  before: string;
  after: string;
}
/** The pairs comparing the same columns of the row before (`before` alias) and after (`after` alias) a write. */
export function columnPairs(columns: readonly string[], before: string, after: string): ChangePairSql[] {
  return columns.map((c) => ({ key: c, before: `${before}.${c}`, after: `${after}.${c}` }));
}
/**
 * SQL for the detail of an 'update' audit row written by the statement that makes the change (the hot paths are one
 * statement): `{ fields, changes: { key: { before, after } } }` for every pair whose values differ, as `changesOf`
 * builds in code, plus `extra` (a jsonb expression of further members) when given. Keys are trusted SQL names.
 */
export function changesSql(pairs: readonly ChangePairSql[], extra?: string): string {
  const each = pairs.map(
    (p) =>
      `CASE WHEN (${p.before}) IS DISTINCT FROM (${p.after}) THEN jsonb_build_object('${p.key}', jsonb_build_object('before', ` +
      `to_jsonb(${p.before}), 'after', to_jsonb(${p.after}))) ELSE '{}'::jsonb END`,
  );
  const ch = each.length ? each.join(' || ') : `'{}'::jsonb`;
  const detail = `jsonb_build_object('fields', COALESCE((SELECT jsonb_agg(k ORDER BY k) FROM jsonb_object_keys(c.ch) k), '[]'::jsonb),
    'changes', c.ch)`;
  return `(SELECT ${extra ? `${detail} || ${extra}` : detail} FROM (SELECT ${ch} AS ch) c)`;
}
