import { Type, Nullable, Strict, StringEnum, TextOrEmpty, Timestamp, type Static } from '../../platform/schema.ts';
import { pageQueryB } from '../../platform/pagination.ts';
import { BLOCK_TYPES, MAX_BLOCKS } from './blocks.ts';

export const CATEGORIES = ['transactional', 'adoption_updates', 'fundraising', 'volunteer_news', 'foster_updates', 'newsletter'] as const;
export type Category = (typeof CATEGORIES)[number];
/** Bulk (subscription) categories carry List-Unsubscribe and honour opt-outs; transactional mail always goes. */
export const BULK_CATEGORIES: readonly Category[] = ['adoption_updates', 'fundraising', 'volunteer_news', 'foster_updates', 'newsletter'];
export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'failed', 'bounced', 'received', 'suppressed'] as const;
export const TEMPLATE_STATUSES = ['active', 'draft', 'archived'] as const;
export const RELATED_TYPES = ['animal', 'adoption_application', 'form_submission', 'person'] as const;

export const Run = Strict({
  text: Type.String({ maxLength: 5000 }),
  bold: Type.Optional(Type.Boolean()),
  italic: Type.Optional(Type.Boolean()),
  underline: Type.Optional(Type.Boolean()),
  strike: Type.Optional(Type.Boolean()),
  href: Type.Optional(Type.String({ maxLength: 2000, description: 'http, https or mailto (merge fields allowed)' })),
});
export const Block = Strict({
  type: StringEnum(BLOCK_TYPES, {
    description:
      'p (paragraph), h1, h2 (headings), bullet, numbered (list items; neighbours form one list), quote, button (a ' +
      'call-to-action link: needs a run with href), divider (runs ignored)',
  }),
  runs: Type.Array(Run, { maxItems: 100 }),
});
/** A run as answered: the style flags are always there (false when not set). */
export const RunOut = Type.Object({
  text: Type.String(),
  bold: Type.Boolean(),
  italic: Type.Boolean(),
  underline: Type.Boolean(),
  strike: Type.Boolean(),
  href: Type.Optional(Type.String({ description: 'only on links' })),
});
export const BlocksOut = Type.Array(Type.Object({ type: StringEnum(BLOCK_TYPES), runs: Type.Array(RunOut) }), {
  description: 'every run carries text, bold, italic, underline and strike (false when not set); href on links',
});
export const Blocks = (description?: string) =>
  Type.Array(Block, { maxItems: MAX_BLOCKS, description: description ?? `at most ${MAX_BLOCKS} blocks` });

export const VariableIn = Strict({
  name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$', maxLength: 64 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});
export const VariableOut = Type.Object({
  name: Type.String(),
  description: TextOrEmpty(),
  source: StringEnum(['person', 'animal', 'organization', 'variables'] as const, { description: 'where a fill takes the value from' }),
});
export const Metadata = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    description:
      'free-form labels, at most 50 keys; values string, number, boolean or null. `category` (one of the message categories) is ' +
      'the default category of messages sent from the template.',
    maxProperties: 50,
  },
);

export const Template = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    tenant_id: Type.String({ description: 'the organization id' }),
    name: TextOrEmpty(),
    channel: StringEnum(['email'] as const),
    subject_template: Type.String(),
    body_template: Type.String({
      description:
        'plain-text form of the body blocks, merge fields exactly as written (headings are not upper-cased); sending it back ' +
        'unchanged keeps the blocks as they are',
    }),
    body_template_blocks: BlocksOut,
    status: StringEnum(TEMPLATE_STATUSES),
    variables: Type.Array(VariableOut, {
      description:
        'every merge field the template uses, in order of first appearance, with the description given and where a fill takes it from',
    }),
    metadata: Metadata,
    version: Type.Integer({ description: 'current version; editing the wording of a version that has been active makes a new one' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'MessageTemplate' },
);

export const Filled = Type.Object(
  {
    template_id: Type.String(),
    template_key: Type.String(),
    template_version: Type.Integer({ description: 'version whose wording this is' }),
    subject: Type.String(),
    body_blocks: BlocksOut,
    unfilled: Type.Array(Type.String(), {
      description: 'merge fields nothing filled, in order of first appearance; they remain in the text as written',
    }),
    person_id: TextOrEmpty(),
    person_ids: Type.Array(Type.String()),
    related_entity_type: TextOrEmpty(),
    related_entity_id: TextOrEmpty(),
    animal_ids: Type.Array(Type.String()),
  },
  { $id: 'FilledTemplate' },
);

const Ids = (what: string) => Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20, description: `at most 20 ${what}` });
export const Variables = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Union([Type.String({ maxLength: 5000 }), Type.Number(), Type.Boolean()]),
  {
    description: 'values by merge-field name (string, number or boolean); they win over records',
    maxProperties: 100,
  },
);
export const fillInputs = {
  person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  person_ids: Type.Optional(Ids('people; names fill as a list ("Ana, Ben and Cy")')),
  animal_ids: Type.Optional(Ids('animals')),
  related_entity_type: Type.Optional(StringEnum(RELATED_TYPES)),
  related_entity_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  variables: Type.Optional(Variables),
};
export const FillBody = Strict(fillInputs);
export type FillBodyT = Static<typeof FillBody>;

const Attempt = Type.Object({
  tier: Type.Integer(),
  provider: Type.String(),
  success: Type.Boolean(),
  error: TextOrEmpty(),
  provider_message_id: TextOrEmpty(),
  attempted_at: Timestamp(),
});
export const PayloadMetadata = Type.Object({
  reason: Type.Optional(Type.String()),
  suppression_scope: Type.Optional(StringEnum(['platform', 'organization', 'person'] as const)),
  suppression_reason: Type.Optional(Type.String()),
  failover_attempts: Type.Optional(Type.Array(Attempt)),
  cc: Type.Optional(Type.Array(Type.String())),
  bcc: Type.Optional(Type.Array(Type.String())),
  copies_suppressed: Type.Optional(Type.Array(Type.String())),
  thread_id: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  needs_review: Type.Optional(Type.Boolean()),
  message_id: Type.Optional(Type.String()),
  from_address: Type.Optional(Type.String()),
  inbox_id: Type.Optional(Type.String()),
  template_version: Type.Optional(Type.Integer()),
});
export const MessageLogEntry = Type.Object(
  {
    id: Type.String(),
    recipient_address: Type.String(),
    direction: StringEnum(['outbound', 'inbound'] as const),
    channel: StringEnum(['email'] as const),
    category: Type.String(),
    status: StringEnum(MESSAGE_STATUSES),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    tenant_id: Type.String({ description: 'the organization id' }),
    template_id: TextOrEmpty(),
    person_id: TextOrEmpty(),
    provider: TextOrEmpty(),
    provider_message_id: TextOrEmpty(),
    subject: Type.String(),
    related_entity_type: TextOrEmpty(),
    related_entity_id: TextOrEmpty(),
    payload_metadata: PayloadMetadata,
  },
  { $id: 'MessageLogEntry' },
);

export const Inbox = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: "the inbox's own part of the address; cannot be changed" }),
    display_name: Type.String(),
    description: Type.String(),
    is_default: Type.Boolean(),
    is_active: Type.Boolean(),
    is_restricted: Type.Boolean(),
    address: Type.String({ format: 'email' }),
    access_list: Type.Object(
      { roles: Type.Array(Type.String()), key_ids: Type.Array(Type.String()) },
      { description: 'who may read a restricted inbox: role names and API key ids (keys with admin on Communications always may)' },
    ),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Inbox' },
);

// Conversations
export const Conversation = Type.Object(
  {
    id: Type.String(),
    inbox_id: Type.String(),
    subject: Type.String(),
    status: StringEnum(['open', 'closed'] as const),
    assigned_to: Nullable(Type.String({ description: 'free text: a staff name, role or key id' })),
    contact_address: Nullable(Type.String()),
    person_id: Nullable(Type.String({ description: 'the confirmed person (only confirmed links are used by fills)' })),
    person_confirmed: Type.Boolean(),
    suggested_person_id: Nullable(Type.String({ description: "a person on file with the sender's address: a suggestion until confirmed" })),
    related_entity_type: Nullable(Type.String()),
    related_entity_id: Nullable(Type.String()),
    last_message_at: Timestamp(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Conversation' },
);
export const ConvMessage = Type.Object({
  id: Type.String(),
  direction: StringEnum(['outbound', 'inbound'] as const),
  status: Type.String(),
  from_address: Nullable(Type.String()),
  to_address: Type.String(),
  subject: Type.String(),
  body_text: Nullable(Type.String()),
  body_html: Nullable(Type.String({ description: 'sanitized' })),
  created_at: Timestamp(),
});
export const ConversationDetail = Type.Object(
  { conversation: Conversation, messages: Type.Array(ConvMessage) },
  { $id: 'ConversationDetail' },
);
export const ConversationListQuery = Strict({
  inbox_id: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(['open', 'closed'] as const)),
  ...pageQueryB(100, 25),
});
export type ConversationListQueryT = Static<typeof ConversationListQuery>;
export const IdempotencyHeader = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });
export const ReplyBody = Strict({
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: 998 })),
  body_blocks: Blocks(),
  variables: Type.Optional(
    Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 5000 }), Type.Number(), Type.Boolean()])),
  ),
});
export type ReplyBodyT = Static<typeof ReplyBody>;
export const AssignBody = Strict({ assigned_to: Nullable(Type.String({ minLength: 1, maxLength: 200 })) });
export type AssignBodyT = Static<typeof AssignBody>;
export const ConfirmPersonBody = Strict({ person_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
export type ConfirmPersonBodyT = Static<typeof ConfirmPersonBody>;
export const SendReply = Type.Object({ idempotency_key: Type.String(), results: Type.Array(MessageLogEntry) });

// Inboxes
export const InboxCreateBody = Strict({
  name: Type.String({ description: '1 to 31 characters, ^[a-z0-9][a-z0-9-]{0,30}$' }),
  display_name: Type.Optional(Type.String({ maxLength: 200, description: 'defaults to the name' })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type InboxCreateBodyT = Static<typeof InboxCreateBody>;
export const InboxUpdateBody = Strict({
  name: Type.Optional(Type.String({ maxLength: 64 })),
  display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  is_restricted: Type.Optional(Type.Boolean()),
  access_list: Type.Optional(
    Strict({
      roles: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 63 }), { maxItems: 100, uniqueItems: true })),
      key_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true })),
    }),
  ),
});
export type InboxUpdateBodyT = Static<typeof InboxUpdateBody>;

// Suppressions, preferences, sender
export const SuppressionCreateBody = Strict({
  address: Type.String({ minLength: 3, maxLength: 254 }),
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default: manual' })),
});
export type SuppressionCreateBodyT = Static<typeof SuppressionCreateBody>;
export const SuppressionListQuery = Strict({ address: Type.Optional(Type.String({ maxLength: 254 })), ...pageQueryB(100, 25) });
export type SuppressionListQueryT = Static<typeof SuppressionListQuery>;
export const PreferenceParams = Type.Object({ person_id: Type.String({ minLength: 1, maxLength: 64 }), category: StringEnum(CATEGORIES) });
export type PreferenceParamsT = Static<typeof PreferenceParams>;
export const PreferenceBody = Strict({ opted_out: Type.Boolean() });
export type PreferenceBodyT = Static<typeof PreferenceBody>;
export const SenderUpdateBody = Strict({
  from_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  reply_to: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
  sending_domain: Type.Optional(Nullable(Type.String({ minLength: 3, maxLength: 253 }))),
});
export type SenderUpdateBodyT = Static<typeof SenderUpdateBody>;

// Sending
const Emails = (max: number, what: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 3, maxLength: 254 }), { maxItems: max, description: `at most ${max} ${what}` }));

export const SendBody = Strict({
  idempotency_key: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'or the Idempotency-Key header (both: they must match)' }),
  ),
  ...fillInputs,
  person_ids: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 50,
      description: 'each person gets their own copy, filled for them (at most 50)',
    }),
  ),
  to_addresses: Emails(20, 'addresses not (necessarily) on file; an address of a person on file is treated as that person'),
  template_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'an active template; or send subject and body_blocks' }),
  ),
  subject: Type.Optional(Type.String({ minLength: 1, maxLength: 998 })),
  body_blocks: Type.Optional(Blocks()),
  cc: Emails(10, 'copies'),
  bcc: Emails(10, 'blind copies'),
  category: Type.Optional(StringEnum(CATEGORIES, { description: "default: the template's metadata.category, else transactional" })),
  inbox_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'send from this inbox (default: the default inbox)' })),
});
export type SendBodyT = Static<typeof SendBody>;
