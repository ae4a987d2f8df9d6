import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';

const DAY = 86_400_000;

/** A few tasks (one done, one linked to an animal, one to a person) and a post-adoption follow-up chain from a template. */
export async function seedTasks(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const now = Date.now();
  const at = (days: number) => new Date(now + days * DAY).toISOString();
  const animal = data.animals[0];
  const person = data.people[0];
  const base = { notes: '', assignee_member: null, linked_type: null, linked_id: null, priority: 'normal' } as const;
  await repo.insertTask(q, org.id, {
    ...base,
    id: newId('tsk'),
    title: 'Order kitten milk replacer',
    due_at: at(1),
    assignee_role: 'staff',
    priority: 'high',
  });
  if (animal)
    await repo.insertTask(q, org.id, {
      ...base,
      id: newId('tsk'),
      title: `Book dental for ${animal.name}`,
      due_at: at(5),
      assignee_role: null,
      linked_type: 'animal',
      linked_id: animal.id,
    });
  if (person)
    await repo.insertTask(q, org.id, {
      ...base,
      id: newId('tsk'),
      title: `Call ${person.first_name} back about fostering`,
      due_at: at(-1),
      assignee_role: null,
      assignee_member: 'coordinator@example.org',
      linked_type: 'person',
      linked_id: person.id,
      priority: 'urgent',
    });
  const done = await repo.insertTask(q, org.id, {
    ...base,
    id: newId('tsk'),
    title: 'Restock the food bank shelf',
    due_at: at(-3),
    assignee_role: 'staff',
  });
  await repo.updateTask(q, org.id, done.id, { done_at: new Date(now - 2 * DAY), done_by: 'seed' });

  const steps = [
    {
      title: 'Follow-up call: settling in',
      notes: 'Ask about eating, sleeping, toilet training.',
      days_after_previous: 2,
      priority: 'normal',
      assignee_role: 'staff',
      assignee_member: null,
    },
    {
      title: 'Follow-up call: two weeks',
      notes: '',
      days_after_previous: 12,
      priority: 'normal',
      assignee_role: 'staff',
      assignee_member: null,
    },
    {
      title: 'Home check visit',
      notes: 'Confirm microchip registration is in the adopter’s name.',
      days_after_previous: 16,
      priority: 'high',
      assignee_role: 'staff',
      assignee_member: null,
    },
  ];
  const tpl = await repo.insertTemplate(q, org.id, newId('ttp'), 'Post-adoption follow-up', steps);
  const chainId = newId('tch');
  let due = now - 3 * DAY;
  for (const [i, s] of steps.entries()) {
    due += s.days_after_previous * DAY;
    const t = await repo.insertTask(q, org.id, {
      id: newId('tsk'),
      title: s.title,
      notes: s.notes,
      due_at: new Date(due).toISOString(),
      assignee_role: s.assignee_role,
      assignee_member: null,
      linked_type: person ? 'person' : null,
      linked_id: person?.id ?? null,
      priority: s.priority,
      template_id: tpl.id,
      chain_id: chainId,
      chain_step: i + 1,
    });
    if (i === 0) await repo.updateTask(q, org.id, t.id, { done_at: new Date(now - DAY), done_by: 'seed' });
  }
}
