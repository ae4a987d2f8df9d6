import type { Queryable } from '../../platform/db/db.ts';

export interface TargetRow {
  id: string;
  format: 'petfinder' | 'adoptapet';
  protocol: 'ftp' | 'sftp';
  host: string;
  port: number;
  username: string;
  password: string;
  secure: boolean;
  remote_dir: string;
  enabled: boolean;
  last_run_at: Date | null;
  last_status: 'ok' | 'failed' | null;
  last_error: string | null;
  last_animals: number | null;
  last_photos: number | null;
  created_at: Date;
  updated_at: Date;
}
const COLS =
  'id, format, protocol, host, port, username, password, secure, remote_dir, enabled, last_run_at, last_status, last_error, ' +
  'last_animals, last_photos, created_at, updated_at';

export async function listTargets(q: Queryable, orgId: string, limit: number, offset: number): Promise<TargetRow[]> {
  return q.query<TargetRow>(
    `SELECT ${COLS} FROM syndication_targets WHERE organization_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}
export async function getTarget(q: Queryable, orgId: string, id: string): Promise<TargetRow | null> {
  return (
    (await q.query<TargetRow>(`SELECT ${COLS} FROM syndication_targets WHERE organization_id = $1 AND id = $2`, [orgId, id]))[0] ?? null
  );
}
/** The target locked for a run; null when another transaction holds it (a run in progress). */
export async function lockTarget(q: Queryable, orgId: string, id: string): Promise<TargetRow | null> {
  return (
    (
      await q.query<TargetRow>(`SELECT ${COLS} FROM syndication_targets WHERE organization_id = $1 AND id = $2 FOR UPDATE SKIP LOCKED`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
}
export async function insertTarget(
  q: Queryable,
  orgId: string,
  id: string,
  t: {
    format: string;
    protocol: string;
    host: string;
    port: number;
    username: string;
    password: string;
    secure: boolean;
    remote_dir: string;
    enabled: boolean;
  },
): Promise<TargetRow> {
  const rows = await q.query<TargetRow>(
    `INSERT INTO syndication_targets (organization_id, id, format, protocol, host, port, username, password, secure, remote_dir, enabled)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLS}`,
    [orgId, id, t.format, t.protocol, t.host, t.port, t.username, t.password, t.secure, t.remote_dir, t.enabled],
  );
  return rows[0] as TargetRow;
}
const EDITABLE = new Set(['format', 'protocol', 'host', 'port', 'username', 'password', 'secure', 'remote_dir', 'enabled']);
export async function updateTarget(q: Queryable, orgId: string, id: string, patch: Record<string, unknown>): Promise<TargetRow | null> {
  const keys = Object.keys(patch).filter((k) => EDITABLE.has(k) && patch[k] !== undefined);
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  const rows = await q.query<TargetRow>(
    `UPDATE syndication_targets SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, ...keys.map((k) => patch[k])],
  );
  return rows[0] ?? null;
}
export async function deleteTarget(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await q.query('DELETE FROM syndication_targets WHERE organization_id = $1 AND id = $2 RETURNING id', [orgId, id])).length > 0;
}
export async function recordRun(
  q: Queryable,
  orgId: string,
  id: string,
  r: { status: string; animals: number; photos: number; error: string | null },
): Promise<void> {
  await q.query(
    `UPDATE syndication_targets SET last_run_at = now(), last_status = $3, last_error = $4, last_animals = $5, last_photos = $6
      WHERE organization_id = $1 AND id = $2`,
    [orgId, id, r.status, r.error, r.animals, r.photos],
  );
}
