import { Type, Strict, Nullable, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/**
 * The kinds of record a task may name, each with the area a key must read to see the task. A task with no
 * linked record is seen by every key that reads Tasks.
 */
export const LINK_AREAS = {
  animal: 'animals',
  adoption_application: 'animals',
  foster_home: 'animals',
  transport: 'animals',
  location: 'animals',
  person: 'people',
  partner: 'partners',
  form_submission: 'forms',
  event: 'events',
  campaign: 'fundraising',
  donation: 'fundraising',
  shift_schedule: 'shifts',
} as const;
export type LinkType = keyof typeof LINK_AREAS;
export const LINK_TYPES = Object.keys(LINK_AREAS) as LinkType[];

const title = Type.String({ minLength: 1, maxLength: 200 });
const notes = Type.String({ maxLength: 5000 });
const assigneeRole = Type.String({ minLength: 1, maxLength: 64, description: 'name of a role of the organization' });
const assigneeMember = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'a free reference to a team member (an email address or a name); Ark has no member records yet, so it is stored as given',
});

export const Task = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    notes: Type.String(),
    due_at: Nullable(Timestamp()),
    assignee_role: Nullable(Type.String()),
    assignee_member: Nullable(Type.String()),
    linked_type: Nullable(StringEnum(LINK_TYPES)),
    linked_id: Nullable(Type.String()),
    priority: StringEnum(PRIORITIES),
    done: Type.Boolean(),
    done_at: Nullable(Timestamp()),
    done_by: Nullable(Type.String({ description: 'the key that marked it done (`key:<id>`)' })),
    template_id: Nullable(Type.String()),
    chain_id: Nullable(Type.String({ description: 'tasks made together from one template share this id' })),
    chain_step: Nullable(Type.Integer({ description: 'position in its chain, from 1' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Task' },
);
export type TaskT = Static<typeof Task>;

export const TaskCreate = Strict({
  title,
  notes: Type.Optional(notes),
  due_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  assignee_role: Type.Optional(Nullable(assigneeRole)),
  assignee_member: Type.Optional(Nullable(assigneeMember)),
  linked_type: Type.Optional(Nullable(StringEnum(LINK_TYPES))),
  linked_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  priority: Type.Optional(StringEnum(PRIORITIES)),
});
export type TaskCreateT = Static<typeof TaskCreate>;
export const TaskPatch = Strict({
  title: Type.Optional(title),
  notes: Type.Optional(notes),
  due_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  assignee_role: Type.Optional(Nullable(assigneeRole)),
  assignee_member: Type.Optional(Nullable(assigneeMember)),
  linked_type: Type.Optional(Nullable(StringEnum(LINK_TYPES))),
  linked_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  priority: Type.Optional(StringEnum(PRIORITIES)),
  done: Type.Optional(Type.Boolean({ description: 'true marks it done (once: done_at and done_by keep the first); false reopens it' })),
});
export type TaskPatchT = Static<typeof TaskPatch>;

export const TaskListQuery = Type.Object({
  ...pageQueryB(100, 25),
  done: Type.Optional(Type.Boolean()),
  assignee_role: Type.Optional(Type.String({ maxLength: 64 })),
  assignee_member: Type.Optional(Type.String({ maxLength: 200 })),
  linked_type: Type.Optional(StringEnum(LINK_TYPES)),
  linked_id: Type.Optional(Type.String({ maxLength: 64 })),
  priority: Type.Optional(StringEnum(PRIORITIES)),
  due_from: Type.Optional(Type.String({ format: 'date-time', description: 'due at or after' })),
  due_to: Type.Optional(Type.String({ format: 'date-time', description: 'due before' })),
  chain_id: Type.Optional(Type.String({ maxLength: 64 })),
});
export type TaskListQueryT = Static<typeof TaskListQuery>;
export const TaskList = Type.Object({ results: Type.Array(Task), ...PageFieldsB }, { $id: 'TaskList' });

const Step = Strict({
  title,
  notes: Type.Optional(notes),
  days_after_previous: Type.Integer({
    minimum: 0,
    maximum: 3650,
    description: 'days after the previous step is due (the first step: after the start the chain is given)',
  }),
  priority: Type.Optional(StringEnum(PRIORITIES)),
  assignee_role: Type.Optional(Nullable(assigneeRole)),
  assignee_member: Type.Optional(Nullable(assigneeMember)),
});
export const TaskTemplate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    steps: Type.Array(
      Type.Object({
        title: Type.String(),
        notes: Type.String(),
        days_after_previous: Type.Integer(),
        priority: StringEnum(PRIORITIES),
        assignee_role: Nullable(Type.String()),
        assignee_member: Nullable(Type.String()),
      }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'TaskTemplate' },
);
export type TaskTemplateT = Static<typeof TaskTemplate>;
export const TemplateCreate = Strict({
  name: Type.String({ minLength: 1, maxLength: 120 }),
  steps: Type.Array(Step, { minItems: 1, maxItems: 50 }),
});
export type TemplateCreateT = Static<typeof TemplateCreate>;
export const TemplatePatch = Type.Partial(TemplateCreate, { additionalProperties: false });
export type TemplatePatchT = Static<typeof TemplatePatch>;
export const TemplateList = Type.Object({ results: Type.Array(TaskTemplate), ...PageFieldsB }, { $id: 'TaskTemplateList' });
export const TemplateApply = Strict({
  start_at: Type.String({ format: 'date-time', description: 'the first step is due this many days after it' }),
  linked_type: Type.Optional(Nullable(StringEnum(LINK_TYPES))),
  linked_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  assignee_role: Type.Optional(Nullable(assigneeRole)),
  assignee_member: Type.Optional(Nullable(assigneeMember)),
});
export type TemplateApplyT = Static<typeof TemplateApply>;
export const Chain = Type.Object({ chain_id: Type.String(), results: Type.Array(Task) }, { $id: 'TaskChain' });
