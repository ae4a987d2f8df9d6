import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit, auditUpdate } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { base62, newId } from '../../platform/ids.ts';
import { allows, type Grants } from '../../platform/permissions.ts';
import { animalExists } from '../animals/public.ts';
import { personExists } from '../people/public.ts';
import { eventExists } from '../events/public.ts';
import { submissionExists } from '../forms/public.ts';
import * as repo from './repository.ts';
import {
  LINK_AREAS,
  LINK_TYPES,
  type LinkType,
  type TaskCreateT,
  type TaskPatchT,
  type TaskT,
  type TemplateApplyT,
  type TemplateCreateT,
  type TemplatePatchT,
} from './schemas.ts';

/** The kinds of linked record whose area the key may read: tasks linked to any other kind are invisible to it. */
export function visibleLinks(grants: Grants): LinkType[] {
  return LINK_TYPES.filter((t) => allows(grants, LINK_AREAS[t], 'read'));
}

/**
 * A task may name a record only of a kind the key may read; animals, people, events and form submissions must
 * exist (other kinds are stored as given: their areas may be added later or live in another module).
 */
async function checkLink(q: Queryable, orgId: string, grants: Grants, type: LinkType | null, id: string | null) {
  if ((type == null) !== (id == null)) {
    throw invalid(type == null ? { linked_type: ['is required with linked_id'] } : { linked_id: ['is required with linked_type'] });
  }
  if (type == null || id == null) return;
  const missing = () => invalid({ linked_id: [`names no ${type.replaceAll('_', ' ')} this key may read`] });
  if (!allows(grants, LINK_AREAS[type], 'read')) throw missing();
  const exists =
    type === 'animal'
      ? await animalExists(q, orgId, id)
      : type === 'person'
        ? await personExists(q, orgId, id)
        : type === 'event'
          ? await eventExists(q, orgId, id)
          : type === 'form_submission'
            ? await submissionExists(q, orgId, id)
            : true;
  if (!exists) throw missing();
}

function checkAssignee(b: { assignee_role?: string | null; assignee_member?: string | null }) {
  if (b.assignee_role != null && b.assignee_member != null)
    throw invalid({ assignee_member: ['cannot be sent with assignee_role: a task goes to a role or to a member'] });
}

export async function createTask(db: Db, orgId: string, grants: Grants, actor: string, b: TaskCreateT): Promise<TaskT> {
  checkAssignee(b);
  return db.tx(async (q) => {
    await checkLink(q, orgId, grants, b.linked_type ?? null, b.linked_id ?? null);
    const t = await repo.insertTask(q, orgId, {
      id: newId('tsk'),
      title: b.title,
      notes: b.notes ?? '',
      due_at: b.due_at ?? null,
      assignee_role: b.assignee_role ?? null,
      assignee_member: b.assignee_member ?? null,
      linked_type: b.linked_type ?? null,
      linked_id: b.linked_id ?? null,
      priority: b.priority ?? 'normal',
    });
    await audit(q, orgId, actor, 'create', 'task', t.id, { linked_type: t.linked_type, linked_id: t.linked_id });
    return t;
  });
}

export async function getTask(q: Queryable, orgId: string, grants: Grants, id: string): Promise<TaskT> {
  const t = await repo.getTask(q, orgId, id, visibleLinks(grants));
  if (!t) throw notFound('task');
  return t;
}

const FIELDS = ['title', 'notes', 'due_at', 'assignee_role', 'assignee_member', 'linked_type', 'linked_id', 'priority'] as const;

/** Changes a task; `done: true` keeps the first done_at/done_by (marking twice, even at once, is one completion). */
export async function updateTask(db: Db, orgId: string, grants: Grants, actor: string, id: string, b: TaskPatchT): Promise<TaskT> {
  return db.tx(async (q) => {
    const cur = await repo.getTask(q, orgId, id, visibleLinks(grants), true);
    if (!cur) throw notFound('task');
    const set: Record<string, unknown> = {};
    for (const f of FIELDS) if (b[f] !== undefined) set[f] = b[f];
    if (set.priority === null) delete set.priority;
    if (b.assignee_role != null) set.assignee_member = null;
    if (b.assignee_member != null) set.assignee_role = null;
    checkAssignee(b);
    if (b.linked_type !== undefined || b.linked_id !== undefined) {
      const type = b.linked_type !== undefined ? b.linked_type : cur.linked_type;
      const lid = b.linked_id !== undefined ? b.linked_id : cur.linked_id;
      await checkLink(q, orgId, grants, type, lid);
    }
    if (b.done === true && !cur.done) {
      set.done_at = new Date();
      set.done_by = actor;
    } else if (b.done === false && cur.done) {
      set.done_at = null;
      set.done_by = null;
    }
    if (!Object.keys(set).length) return cur;
    const after = await repo.updateTask(q, orgId, id, set);
    const fields = Object.keys(set)
      .map((f) => (f === 'done_at' ? 'done' : f))
      .filter((f) => f !== 'done_by');
    await auditUpdate(q, orgId, actor, 'task', id, cur, after, fields);
    return after;
  });
}

export async function deleteTask(db: Db, orgId: string, grants: Grants, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    const cur = await repo.getTask(q, orgId, id, visibleLinks(grants), true);
    if (!cur) throw notFound('task');
    await repo.deleteTask(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'task', id, { title: cur.title });
  });
}

function normSteps(steps: TemplateCreateT['steps']) {
  return steps.map((s, i) => {
    checkAssigneeStep(s, i);
    return {
      title: s.title,
      notes: s.notes ?? '',
      days_after_previous: s.days_after_previous,
      priority: s.priority ?? 'normal',
      assignee_role: s.assignee_role ?? null,
      assignee_member: s.assignee_member ?? null,
    };
  });
}
function checkAssigneeStep(s: { assignee_role?: string | null; assignee_member?: string | null }, i: number) {
  if (s.assignee_role != null && s.assignee_member != null)
    throw invalid({ [`steps.${i}.assignee_member`]: ['cannot be sent with assignee_role'] });
}

export async function createTemplate(db: Db, orgId: string, actor: string, b: TemplateCreateT) {
  const steps = normSteps(b.steps);
  return db.tx(async (q) => {
    if (await repo.templateNameTaken(q, orgId, b.name, null)) throw invalid({ name: ['is already used by another template'] });
    const t = await repo.insertTemplate(q, orgId, newId('ttp'), b.name, steps);
    await audit(q, orgId, actor, 'create', 'task_template', t.id, { name: t.name });
    return t;
  });
}
export async function updateTemplate(db: Db, orgId: string, actor: string, id: string, b: TemplatePatchT) {
  return db.tx(async (q) => {
    const cur = await repo.getTemplate(q, orgId, id, true);
    if (!cur) throw notFound('task template');
    const name = b.name ?? cur.name;
    if (b.name !== undefined && (await repo.templateNameTaken(q, orgId, name, id)))
      throw invalid({ name: ['is already used by another template'] });
    const after = await repo.updateTemplate(q, orgId, id, name, b.steps ? normSteps(b.steps) : cur.steps);
    await auditUpdate(q, orgId, actor, 'task_template', id, cur, after, Object.keys(b));
    return after;
  });
}
export async function deleteTemplate(db: Db, orgId: string, actor: string, id: string) {
  await db.tx(async (q) => {
    const cur = await repo.getTemplate(q, orgId, id, true);
    if (!cur) throw notFound('task template');
    await repo.deleteTemplate(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'task_template', id, { name: cur.name });
  });
}

const DAY_MS = 86_400_000;
/**
 * Makes a template's whole chain at once, in one transaction: step 1 is due `days_after_previous` days after
 * `start_at`, each later step that many days after the step before it. The chain's assignee and linked record,
 * when sent, apply to every step (a step's own assignee wins).
 */
export async function applyTemplate(db: Db, orgId: string, grants: Grants, actor: string, id: string, b: TemplateApplyT) {
  checkAssignee(b);
  return db.tx(async (q) => {
    const tpl = await repo.getTemplate(q, orgId, id);
    if (!tpl) throw notFound('task template');
    await checkLink(q, orgId, grants, b.linked_type ?? null, b.linked_id ?? null);
    const chainId = newId('tch');
    let due = new Date(b.start_at).getTime();
    const out: TaskT[] = [];
    for (const [i, s] of tpl.steps.entries()) {
      due += s.days_after_previous * DAY_MS;
      const own = s.assignee_role != null || s.assignee_member != null;
      out.push(
        await repo.insertTask(q, orgId, {
          id: newId('tsk'),
          title: s.title,
          notes: s.notes,
          due_at: new Date(due).toISOString(),
          assignee_role: own ? s.assignee_role : (b.assignee_role ?? null),
          assignee_member: own ? s.assignee_member : (b.assignee_member ?? null),
          linked_type: b.linked_type ?? null,
          linked_id: b.linked_id ?? null,
          priority: s.priority,
          template_id: tpl.id,
          chain_id: chainId,
          chain_step: i + 1,
        }),
      );
    }
    await audit(q, orgId, actor, 'apply', 'task_template', tpl.id, { chain_id: chainId, tasks: out.map((t) => t.id) });
    return { chain_id: chainId, results: out };
  });
}

/** The calendar feed token of a key (or a signed-in member's key): made on first request, the same until rotated. */
export function feedLink(db: Db, orgId: string, actor: string, keyId: string, rotate: boolean) {
  return db.tx(async (q) => {
    let row = rotate ? null : await repo.feedToken(q, orgId, keyId);
    if (!row) {
      row = await repo.setFeedToken(q, orgId, keyId, base62(40));
      await audit(q, orgId, actor, rotate ? 'rotate' : 'create', 'calendar_feed', keyId);
    }
    return { token: row.token, created_at: row.created_at };
  });
}
