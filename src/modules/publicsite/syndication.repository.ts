import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';

/** A syndication target as read: the stored row, its format, protocol and last status narrowed. */
export type TargetRow = Omit<Selectable<DB['syndication_targets']>, 'organization_id' | 'format' | 'protocol' | 'last_status'> & {
  format: 'petfinder' | 'adoptapet';
  protocol: 'ftp' | 'sftp';
  last_status: 'ok' | 'failed' | null;
};
type Narrowed = Pick<TargetRow, 'format' | 'protocol' | 'last_status'>;
const COLS = [
  'id',
  'format',
  'protocol',
  'host',
  'port',
  'username',
  'password',
  'secure',
  'remote_dir',
  'enabled',
  'last_run_at',
  'last_status',
  'last_error',
  'last_animals',
  'last_photos',
  'created_at',
  'updated_at',
] as const;

const targets = (q: Queryable, orgId: string) =>
  kx(q).selectFrom('syndication_targets').select(COLS).$narrowType<Narrowed>().where('organization_id', '=', orgId);

export async function listTargets(q: Queryable, orgId: string, limit: number, offset: number): Promise<TargetRow[]> {
  return targets(q, orgId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function getTarget(q: Queryable, orgId: string, id: string): Promise<TargetRow | null> {
  return (await targets(q, orgId).where('id', '=', id).executeTakeFirst()) ?? null;
}
/** The target locked for a run; null when another transaction holds it (a run in progress). */
export async function lockTarget(q: Queryable, orgId: string, id: string): Promise<TargetRow | null> {
  return (await targets(q, orgId).where('id', '=', id).forUpdate().skipLocked().executeTakeFirst()) ?? null;
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
  return kx(q)
    .insertInto('syndication_targets')
    .values({
      organization_id: orgId,
      id,
      format: t.format,
      protocol: t.protocol,
      host: t.host,
      port: t.port,
      username: t.username,
      password: t.password,
      secure: t.secure,
      remote_dir: t.remote_dir,
      enabled: t.enabled,
    })
    .returning(COLS)
    .$narrowType<Narrowed>()
    .executeTakeFirstOrThrow();
}
const EDITABLE = ['format', 'protocol', 'host', 'port', 'username', 'password', 'secure', 'remote_dir', 'enabled'] as const;
export async function updateTarget(q: Queryable, orgId: string, id: string, patch: Record<string, unknown>): Promise<TargetRow | null> {
  // the editable columns sent, in the order the patch names them
  const set = Object.fromEntries(
    Object.keys(patch)
      .filter((k) => (EDITABLE as readonly string[]).includes(k) && patch[k] !== undefined)
      .map((k) => [k, patch[k]]),
  );
  const row = await kx(q)
    .updateTable('syndication_targets')
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(COLS)
    .$narrowType<Narrowed>()
    .executeTakeFirst();
  return row ?? null;
}
export async function deleteTarget(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await kx(q)
    .deleteFrom('syndication_targets')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return rows.length > 0;
}
export async function recordRun(
  q: Queryable,
  orgId: string,
  id: string,
  r: { status: string; animals: number; photos: number; error: string | null },
): Promise<void> {
  await kx(q)
    .updateTable('syndication_targets')
    .set({ last_run_at: sql`now()`, last_status: r.status, last_error: r.error, last_animals: r.animals, last_photos: r.photos })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .execute();
}
