import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { createTemplate } from './templates.service.ts';
import { ensureDefaultInbox } from './inboxes.repository.ts';
import { createInbox, mailHost } from './inboxes.service.ts';
import { loadConfig } from '../../config.ts';
import { renderHtml, renderText, type Block } from './blocks.ts';

const p = (text: string): Block => ({ type: 'p', runs: [{ text }] });

/** Sample templates, two inboxes and twenty message-log entries (both directions, several statuses). */
export async function seedCommunications(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const actor = 'seed';
  const welcome = await createTemplate(q, org.id, actor, {
    key: 'adoption.welcome',
    name: 'Adoption welcome',
    status: 'active',
    metadata: { category: 'adoption_updates' },
    subject_template: 'Welcome home, {{animal_name}}!',
    body_template_blocks: [
      { type: 'h1', runs: [{ text: 'Congratulations, {{first_name}}!' }] },
      p('Thank you for adopting {{animal_name}} ({{animal_species}}) from {{org_name}}.'),
      { type: 'bullet', runs: [{ text: 'Keep the first week calm and quiet.' }] },
      { type: 'bullet', runs: [{ text: 'Book a vet visit within 14 days.' }] },
      { type: 'button', runs: [{ text: 'Adopter resources', href: 'https://example.org/adopters' }] },
    ],
  });
  await createTemplate(q, org.id, actor, {
    key: 'foster.checkin',
    name: 'Foster check-in',
    status: 'active',
    metadata: { category: 'foster_updates' },
    subject_template: 'How is {{animal_name}} doing, {{first_name}}?',
    body_template_blocks: [
      p('Hi {{full_name}},'),
      p('Could you send us a short update and a photo of {{animal_name}}? Reply to this email or call {{org_name}}.'),
      { type: 'divider', runs: [] },
      { type: 'quote', runs: [{ text: 'Fostering saves lives.', italic: true }] },
    ],
  });
  await createTemplate(q, org.id, actor, {
    key: 'donation.thanks',
    name: 'Donation thank-you',
    status: 'active',
    metadata: { category: 'transactional' },
    subject_template: 'Thank you, {{first_name}}',
    variables: [{ name: 'amount', description: 'the gift, formatted with its currency' }],
    body_template_blocks: [
      p('Dear {{first_name}} {{last_name}},'),
      p('Your gift of {{amount}} keeps {{org_name}} caring for animals like {{animal_name}}.'),
      { type: 'numbered', runs: [{ text: 'Food' }] },
      { type: 'numbered', runs: [{ text: 'Vet care' }] },
    ],
  });
  await createTemplate(q, org.id, actor, {
    key: 'event.invite',
    name: 'Adoption day invite',
    status: 'draft',
    subject_template: 'Join us on {{event_date}}',
    body_template: 'Hi {{first_name}},\n\nCome meet our animals on {{event_date}}.',
  });
  await createTemplate(q, org.id, actor, {
    key: 'newsletter.2023',
    name: 'Old newsletter',
    status: 'archived',
    metadata: { category: 'newsletter' },
    subject_template: '{{org_name}} news',
    body_template: 'Our year in review.',
  });

  // Full addresses, as the listener and the inbox list spell them (`ark seed` runs with the server's environment).
  const host = mailHost(org.slug, loadConfig().mailDomain);
  const hello = await ensureDefaultInbox(q, org.id);
  const adoptions = await createInbox(q, org.id, actor, {
    name: 'adoptions',
    display_name: 'Adoptions',
    description: 'Questions from adopters and applicants',
  });

  const statuses = [
    'sent',
    'sent',
    'delivered',
    'sent',
    'queued',
    'failed',
    'bounced',
    'suppressed',
    'sent',
    'sent',
    'delivered',
    'sent',
    'suppressed',
    'sent',
    'sent',
  ];
  const categories = ['adoption_updates', 'transactional', 'fundraising', 'volunteer_news', 'foster_updates'];
  for (let i = 0; i < 20; i++) {
    const person = data.people[i % Math.max(1, data.people.length)];
    const animal = data.animals[i % Math.max(1, data.animals.length)];
    const inbound = i >= 15;
    const status = inbound ? 'received' : (statuses[i] ?? 'sent');
    const blocks = [
      p(
        inbound
          ? `Hello, I have a question about ${animal?.name ?? 'an animal'}.`
          : `Hi ${person?.first_name ?? 'there'}, an update from ${org.name}.`,
      ),
    ];
    const meta: Record<string, unknown> = {};
    if (!inbound && status !== 'queued' && status !== 'suppressed') {
      meta.failover_attempts = [
        {
          tier: 1,
          provider: 'primary',
          success: status !== 'failed' && status !== 'bounced',
          error: status === 'failed' ? '421 try again later' : status === 'bounced' ? '550 no such user' : null,
          provider_message_id: status === 'failed' || status === 'bounced' ? null : `seed-${i}`,
          attempted_at: new Date(Date.now() - (20 - i) * 3600_000).toISOString(),
        },
      ];
    }
    if (status === 'suppressed')
      Object.assign(meta, { reason: 'opted_out', suppression_scope: 'organization', suppression_reason: 'opted out of fundraising' });
    if (status === 'failed') meta.error = 'every provider refused: 421 try again later';
    const id = newId('msg');
    let conversation: string | null = null;
    if (inbound) {
      conversation = newId('cnv');
      await kx(q)
        .insertInto('comm_conversations')
        .values({
          organization_id: org.id,
          id: conversation,
          inbox_id: i % 2 ? hello.id : adoptions.id,
          subject: `Question about ${animal?.name ?? 'adopting'}`,
          contact_address: person?.email ?? 'someone@example.org',
          suggested_person_id: person?.id ?? null,
          last_message_at: sql`now() - make_interval(hours => ${20 - i})`,
        })
        .execute();
      meta.thread_id = conversation;
    }
    const ago = sql<Date>`now() - make_interval(hours => ${20 - i})`;
    await kx(q)
      .insertInto('comm_messages')
      .values({
        organization_id: org.id,
        id,
        direction: inbound ? 'inbound' : 'outbound',
        category: inbound ? 'conversation' : (categories[i % categories.length] ?? 'transactional'),
        status,
        recipient_address: inbound ? `${i % 2 ? 'hello' : 'adoptions'}@${host}` : (person?.email ?? 'someone@example.org'),
        from_address: inbound ? (person?.email ?? null) : `hello@${host}`,
        // Received mail names a person only once staff confirm who wrote; these conversations are unconfirmed (a suggestion only).
        person_id: inbound ? null : (person?.id ?? null),
        template_id: !inbound && i % 3 === 0 ? welcome.id : null,
        template_version: !inbound && i % 3 === 0 ? 1 : null,
        provider: !inbound && meta.failover_attempts ? 'primary' : null,
        provider_message_id: status === 'sent' || status === 'delivered' ? `seed-${i}` : null,
        subject: inbound ? `Question about ${animal?.name ?? 'adopting'}` : `News from ${org.name}`,
        body_html: renderHtml(blocks),
        body_text: renderText(blocks),
        related_entity_type: animal && !inbound ? 'animal' : null,
        related_entity_id: animal && !inbound ? animal.id : null,
        payload_metadata: JSON.stringify(meta),
        message_id_header: `<${id}@seed.${org.slug}>`,
        inbox_id: inbound ? (i % 2 ? hello.id : adoptions.id) : hello.id,
        conversation_id: conversation,
        created_at: ago,
        updated_at: ago,
      })
      .execute();
  }
}
