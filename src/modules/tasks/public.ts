/** What other modules may use of the tasks module (it owns tasks and task templates). */
import type { Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import { insertTask } from './repository.ts';

/**
 * A task for staff (unassigned, due today) linked to a record, with its audit row, inside the caller's transaction:
 * a request a person made outside the staff app (a foster asking for supplies). Returns the task's id.
 */
export async function createStaffTask(
  q: Queryable,
  orgId: string,
  actor: string,
  t: { title: string; notes: string; linked_type: 'animal' | 'person'; linked_id: string; priority: 'normal' | 'high' },
): Promise<string> {
  const id = newId('tsk');
  await insertTask(q, orgId, {
    id,
    title: t.title,
    notes: t.notes,
    due_at: new Date().toISOString(),
    assignee_role: null,
    assignee_member: null,
    linked_type: t.linked_type,
    linked_id: t.linked_id,
    priority: t.priority,
  });
  await audit(q, orgId, actor, 'create', 'task', id, { title: t.title, linked_type: t.linked_type, linked_id: t.linked_id });
  return id;
}
