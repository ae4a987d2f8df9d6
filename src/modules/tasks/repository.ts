import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable, type Updateable } from '../../platform/db/kysely.ts';
import type { TaskT, TaskListQueryT, TaskTemplateT, LinkType } from './schemas.ts';

const TASK_COLS = [
  'id',
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
  'template_id',
  'chain_id',
  'chain_step',
  'created_at',
  'updated_at',
] as const;
const done = sql<boolean>`done_at IS NOT NULL`.as('done');
type Stored = Pick<Selectable<DB['tasks']>, (typeof TASK_COLS)[number]> & { done: boolean };
/** The stored task as its wire shape (link type and priority are checked on write). */
const toTask = (r: Stored): TaskT => ({ ...r, linked_type: r.linked_type as LinkType | null, priority: r.priority as TaskT['priority'] });
const visibleLink = (visible: LinkType[]) => sql<boolean>`(linked_type IS NULL OR linked_type = ANY(${visible}::text[]))`;

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
  const row = await kx(q)
    .insertInto('tasks')
    .values({
      organization_id: orgId,
      id: t.id,
      title: t.title,
      notes: t.notes,
      due_at: t.due_at,
      assignee_role: t.assignee_role,
      assignee_member: t.assignee_member,
      linked_type: t.linked_type,
      linked_id: t.linked_id,
      priority: t.priority,
      template_id: t.template_id ?? null,
      chain_id: t.chain_id ?? null,
      chain_step: t.chain_step ?? null,
    })
    .returning(TASK_COLS)
    .returning(done)
    .executeTakeFirstOrThrow();
  return toTask(row);
}

/** The task when it exists and its linked record's kind is among `visible` (or it links nothing). */
export async function getTask(q: Queryable, orgId: string, id: string, visible: LinkType[], lock = false): Promise<TaskT | null> {
  let one = kx(q)
    .selectFrom('tasks')
    .select(TASK_COLS)
    .select(done)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where(visibleLink(visible));
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toTask(row) : null;
}

export async function listTasks(q: Queryable, orgId: string, f: TaskListQueryT, visible: LinkType[]): Promise<TaskT[]> {
  let list = kx(q).selectFrom('tasks').select(TASK_COLS).select(done).where('organization_id', '=', orgId).where(visibleLink(visible));
  if (f.done !== undefined) list = list.where('done_at', f.done ? 'is not' : 'is', null);
  if (f.assignee_role !== undefined) list = list.where(sql<boolean>`lower(assignee_role) = lower(${f.assignee_role})`);
  if (f.assignee_member !== undefined) list = list.where(sql<boolean>`lower(assignee_member) = lower(${f.assignee_member})`);
  if (f.linked_type !== undefined) list = list.where('linked_type', '=', f.linked_type);
  if (f.linked_id !== undefined) list = list.where('linked_id', '=', f.linked_id);
  if (f.priority !== undefined) list = list.where('priority', '=', f.priority);
  if (f.due_from !== undefined) list = list.where('due_at', '>=', sql<Date>`${f.due_from}`);
  if (f.due_to !== undefined) list = list.where('due_at', '<', sql<Date>`${f.due_to}`);
  if (f.chain_id !== undefined) list = list.where('chain_id', '=', f.chain_id);
  const rows = await list
    .orderBy(sql`due_at ASC NULLS LAST`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toTask);
}

/** Open tasks due in [from, to), for the calendar. */
export async function tasksDueBetween(q: Queryable, orgId: string, from: Date, to: Date, visible: LinkType[], limit: number) {
  const rows = await kx(q)
    .selectFrom('tasks')
    .select(TASK_COLS)
    .select(done)
    .where('organization_id', '=', orgId)
    .where('due_at', '>=', from)
    .where('due_at', '<', to)
    .where(visibleLink(visible))
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toTask);
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
  const set: Record<string, unknown> = {};
  for (const c of UPDATABLE) if (c in patch) set[c] = patch[c];
  const row = await kx(q)
    .updateTable('tasks')
    .set({ ...(set as Updateable<DB['tasks']>), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(TASK_COLS)
    .returning(done)
    .executeTakeFirstOrThrow();
  return toTask(row);
}

export async function deleteTask(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('tasks').where('organization_id', '=', orgId).where('id', '=', id).execute();
}

const TPL_COLS = ['id', 'name', 'steps', 'created_at', 'updated_at'] as const;
/** The stored template as its wire shape (its steps are checked on write). */
const toTemplate = (r: Pick<Selectable<DB['task_templates']>, (typeof TPL_COLS)[number]>): TaskTemplateT => ({
  ...r,
  steps: r.steps as TaskTemplateT['steps'],
});
export async function insertTemplate(q: Queryable, orgId: string, id: string, name: string, steps: unknown): Promise<TaskTemplateT> {
  const row = await kx(q)
    .insertInto('task_templates')
    .values({ organization_id: orgId, id, name, steps: JSON.stringify(steps) })
    .returning(TPL_COLS)
    .executeTakeFirstOrThrow();
  return toTemplate(row);
}
export async function getTemplate(q: Queryable, orgId: string, id: string, lock = false): Promise<TaskTemplateT | null> {
  let one = kx(q).selectFrom('task_templates').select(TPL_COLS).where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toTemplate(row) : null;
}
export async function listTemplates(q: Queryable, orgId: string, limit: number, offset: number): Promise<TaskTemplateT[]> {
  const rows = await kx(q)
    .selectFrom('task_templates')
    .select(TPL_COLS)
    .where('organization_id', '=', orgId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(toTemplate);
}
export async function updateTemplate(q: Queryable, orgId: string, id: string, name: string, steps: unknown): Promise<TaskTemplateT> {
  const row = await kx(q)
    .updateTable('task_templates')
    .set({ name, steps: JSON.stringify(steps), updated_at: sql<Date>`now()` })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning(TPL_COLS)
    .executeTakeFirstOrThrow();
  return toTemplate(row);
}
export async function deleteTemplate(q: Queryable, orgId: string, id: string): Promise<void> {
  await kx(q).deleteFrom('task_templates').where('organization_id', '=', orgId).where('id', '=', id).execute();
}
export async function templateNameTaken(q: Queryable, orgId: string, name: string, exceptId: string | null): Promise<boolean> {
  const row = await kx(q)
    .selectFrom('task_templates')
    .select('id')
    .where('organization_id', '=', orgId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .where('id', '<>', exceptId ?? '')
    .executeTakeFirst();
  return row !== undefined;
}

export async function feedToken(q: Queryable, orgId: string, keyId: string): Promise<{ token: string; created_at: Date } | null> {
  const row = await kx(q)
    .selectFrom('org_calendar_feeds')
    .select(['token', 'created_at'])
    .where('organization_id', '=', orgId)
    .where('key_id', '=', keyId)
    .executeTakeFirst();
  return row ?? null;
}
export async function setFeedToken(q: Queryable, orgId: string, keyId: string, token: string) {
  return kx(q)
    .insertInto('org_calendar_feeds')
    .values({ organization_id: orgId, key_id: keyId, token })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'key_id']).doUpdateSet((eb) => ({ token: eb.ref('excluded.token'), created_at: sql<Date>`now()` })),
    )
    .returning(['token', 'created_at'])
    .executeTakeFirstOrThrow();
}
export async function feedByToken(q: Queryable, orgId: string, token: string): Promise<{ key_id: string } | null> {
  const row = await kx(q)
    .selectFrom('org_calendar_feeds')
    .select('key_id')
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .executeTakeFirst();
  return row ?? null;
}
