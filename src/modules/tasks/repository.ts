import type { Queryable } from '../../platform/db/db.ts';
import { setClause, Where } from '../../platform/db/sql.ts';
import type { TaskT, TaskListQueryT, TaskTemplateT, LinkType } from './schemas.ts';

const TASK_COLS = `id, title, notes, due_at, assignee_role, assignee_member, linked_type, linked_id, priority,
  done_at IS NOT NULL AS done, done_at, done_by, template_id, chain_id, chain_step, created_at, updated_at`;

export interface TaskInsert {
  id: string;
  title: string;
  notes: string;
  due_at: string | null;
  assignee_role: string | null;
  assignee_member: string | null;
  linked_type: string | null;
  linked_id: string | null;
  priority: string;
  template_id?: string | null;
  chain_id?: string | null;
  chain_step?: number | null;
}

export async function insertTask(q: Queryable, orgId: string, t: TaskInsert): Promise<TaskT> {
  const rows = await q.query<TaskT>(
    `INSERT INTO tasks (organization_id, id, title, notes, due_at, assignee_role, assignee_member, linked_type, linked_id, priority,
       template_id, chain_id, chain_step)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) RETURNING ${TASK_COLS}`,
    [
      orgId,
      t.id,
      t.title,
      t.notes,
      t.due_at,
      t.assignee_role,
      t.assignee_member,
      t.linked_type,
      t.linked_id,
      t.priority,
      t.template_id ?? null,
      t.chain_id ?? null,
      t.chain_step ?? null,
    ],
  );
  return rows[0] as TaskT;
}

/** The task when it exists and its linked record's kind is among `visible` (or it links nothing). */
export async function getTask(q: Queryable, orgId: string, id: string, visible: LinkType[], lock = false): Promise<TaskT | null> {
  const rows = await q.query<TaskT>(
    `SELECT ${TASK_COLS} FROM tasks WHERE organization_id = $1 AND id = $2 AND (linked_type IS NULL OR linked_type = ANY($3::text[]))
      ${lock ? 'FOR UPDATE' : ''}`,
    [orgId, id, visible],
  );
  return rows[0] ?? null;
}

export async function listTasks(q: Queryable, orgId: string, f: TaskListQueryT, visible: LinkType[]): Promise<TaskT[]> {
  const w = new Where(orgId).and((p) => `(linked_type IS NULL OR linked_type = ANY(${p(visible)}::text[]))`);
  if (f.done !== undefined) w.and(f.done ? 'done_at IS NOT NULL' : 'done_at IS NULL');
  if (f.assignee_role !== undefined) w.and((p) => `lower(assignee_role) = lower(${p(f.assignee_role)})`);
  if (f.assignee_member !== undefined) w.and((p) => `lower(assignee_member) = lower(${p(f.assignee_member)})`);
  if (f.linked_type !== undefined) w.eq('linked_type', f.linked_type);
  if (f.linked_id !== undefined) w.eq('linked_id', f.linked_id);
  if (f.priority !== undefined) w.eq('priority', f.priority);
  if (f.due_from !== undefined) w.and((p) => `due_at >= ${p(f.due_from)}`);
  if (f.due_to !== undefined) w.and((p) => `due_at < ${p(f.due_to)}`);
  if (f.chain_id !== undefined) w.eq('chain_id', f.chain_id);
  return q.query<TaskT>(
    `SELECT ${TASK_COLS} FROM tasks WHERE ${w.sql}
      ORDER BY due_at ASC NULLS LAST, created_at, id ${w.page(f.limit + 1, f.offset)}`,
    w.params,
  );
}

/** Open tasks due in [from, to), for the calendar. */
export async function tasksDueBetween(q: Queryable, orgId: string, from: Date, to: Date, visible: LinkType[], limit: number) {
  return q.query<TaskT>(
    `SELECT ${TASK_COLS} FROM tasks WHERE organization_id = $1 AND due_at >= $2 AND due_at < $3
        AND (linked_type IS NULL OR linked_type = ANY($4::text[]))
      ORDER BY due_at, id LIMIT $5`,
    [orgId, from, to, visible, limit],
  );
}

/** The columns a task update may set. */
const UPDATABLE = [
  'title',
  'notes',
  'due_at',
  'assignee_role',
  'assignee_member',
  'linked_type',
  'linked_id',
  'priority',
  'done_at',
  'done_by',
] as const;

export async function updateTask(
  q: Queryable,
  orgId: string,
  id: string,
  patch: Partial<Record<(typeof UPDATABLE)[number], unknown>>,
): Promise<TaskT> {
  const set = setClause(patch, UPDATABLE, 3);
  const rows = await q.query<TaskT>(
    `UPDATE tasks SET ${[set.sql, 'updated_at = now()'].filter(Boolean).join(', ')}
      WHERE organization_id = $1 AND id = $2 RETURNING ${TASK_COLS}`,
    [orgId, id, ...set.params],
  );
  return rows[0] as TaskT;
}

export async function deleteTask(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM tasks WHERE organization_id = $1 AND id = $2', [orgId, id]);
}

const TPL_COLS = 'id, name, steps, created_at, updated_at';
export async function insertTemplate(q: Queryable, orgId: string, id: string, name: string, steps: unknown): Promise<TaskTemplateT> {
  const rows = await q.query<TaskTemplateT>(
    `INSERT INTO task_templates (organization_id, id, name, steps) VALUES ($1,$2,$3,$4) RETURNING ${TPL_COLS}`,
    [orgId, id, name, JSON.stringify(steps)],
  );
  return rows[0] as TaskTemplateT;
}
export async function getTemplate(q: Queryable, orgId: string, id: string, lock = false): Promise<TaskTemplateT | null> {
  const rows = await q.query<TaskTemplateT>(
    `SELECT ${TPL_COLS} FROM task_templates WHERE organization_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ?? null;
}
export async function listTemplates(q: Queryable, orgId: string, limit: number, offset: number): Promise<TaskTemplateT[]> {
  return q.query<TaskTemplateT>(
    `SELECT ${TPL_COLS} FROM task_templates WHERE organization_id = $1 ORDER BY lower(name), id LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
}
export async function updateTemplate(q: Queryable, orgId: string, id: string, name: string, steps: unknown): Promise<TaskTemplateT> {
  const rows = await q.query<TaskTemplateT>(
    `UPDATE task_templates SET name = $3, steps = $4, updated_at = now() WHERE organization_id = $1 AND id = $2 RETURNING ${TPL_COLS}`,
    [orgId, id, name, JSON.stringify(steps)],
  );
  return rows[0] as TaskTemplateT;
}
export async function deleteTemplate(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('DELETE FROM task_templates WHERE organization_id = $1 AND id = $2', [orgId, id]);
}
export async function templateNameTaken(q: Queryable, orgId: string, name: string, exceptId: string | null): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM task_templates WHERE organization_id = $1 AND lower(name) = lower($2) AND id <> $3', [
    orgId,
    name,
    exceptId ?? '',
  ]);
  return rows.length > 0;
}

export async function feedToken(q: Queryable, orgId: string, keyId: string): Promise<{ token: string; created_at: Date } | null> {
  const rows = await q.query<{ token: string; created_at: Date }>(
    'SELECT token, created_at FROM org_calendar_feeds WHERE organization_id = $1 AND key_id = $2',
    [orgId, keyId],
  );
  return rows[0] ?? null;
}
export async function setFeedToken(q: Queryable, orgId: string, keyId: string, token: string) {
  const rows = await q.query<{ token: string; created_at: Date }>(
    `INSERT INTO org_calendar_feeds (organization_id, key_id, token) VALUES ($1,$2,$3)
     ON CONFLICT (organization_id, key_id) DO UPDATE SET token = EXCLUDED.token, created_at = now() RETURNING token, created_at`,
    [orgId, keyId, token],
  );
  return rows[0] as { token: string; created_at: Date };
}
export async function feedByToken(q: Queryable, orgId: string, token: string): Promise<{ key_id: string } | null> {
  const rows = await q.query<{ key_id: string }>('SELECT key_id FROM org_calendar_feeds WHERE organization_id = $1 AND token = $2', [
    orgId,
    token,
  ]);
  return rows[0] ?? null;
}
