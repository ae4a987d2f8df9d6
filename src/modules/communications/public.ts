/** What other modules may use of the communications module. */
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { BUILT_IN_ROLES } from '../../platform/permissions.ts';
import { providersConfigured, send } from './messages.service.ts';
import { escapeHtml } from '../../platform/html.ts';
import { newId } from '../../platform/ids.ts';
import { kx } from '../../platform/db/kysely.ts';
import { organizationProfile } from '../settings/public.ts';
import { ensureDefaultInbox } from './inboxes.repository.ts';
import { mailHost } from './inboxes.service.ts';
import { senderOf } from './delivery.repository.ts';
import { sendingDomain } from './delivery.service.ts';
import { insertOutbound } from './messages.repository.ts';

export { fillText, mergeFieldsIn, listJoin, recordMergeValues } from './blocks.ts';
export { send, providersConfigured, type SendInput } from './messages.service.ts';
export { orgBaseUrl } from './delivery.service.ts';
/** The adoptions module registers how a `related_entity_type: adoption_application` fill finds the applicant and animals. */
export { applicationResolver, type ApplicationResolver } from './fill.ts';
export { getTemplate } from './templates.service.ts';

/**
 * Queues one transactional email (a heading, paragraphs, a button) to an address, logged like every
 * message. Returns false, sending nothing, when no SMTP provider is configured.
 */
export async function sendNotice(
  db: Db,
  config: Config,
  org: Organization,
  actor: string,
  n: { to: string; subject: string; paragraphs: string[]; button: { text: string; href: string }; idempotencyKey: string },
): Promise<boolean> {
  if (!providersConfigured(config)) return false;
  const admin = BUILT_IN_ROLES[0]?.grants ?? {};
  const system = { keyId: 'system', roleId: 'system', roleName: 'system', grants: admin };
  await send(db, config, org, actor, system, {
    idempotency_key: n.idempotencyKey,
    to_addresses: [n.to],
    subject: n.subject,
    category: 'transactional',
    body_blocks: [
      ...n.paragraphs.map((text) => ({ type: 'p' as const, runs: [{ text }] })),
      { type: 'button' as const, runs: [{ text: n.button.text, href: n.button.href }] },
    ],
  });
  return true;
}

/**
 * Queues a plain transactional email to the organization's own address (its settings' email), in the
 * caller's transaction, with its send job; the job queue sends it. Returns the message id, or null when the
 * organization has no email address on file.
 */
export async function queueOrganizationNotice(
  q: Queryable,
  config: Config,
  orgId: string,
  notice: { subject: string; text: string; relatedType: string; relatedId: string },
): Promise<string | null> {
  const org = await organizationProfile(q, orgId);
  if (!org?.email) return null;
  const inbox = await ensureDefaultInbox(q, orgId);
  const sender = await senderOf(q, orgId);
  const host = mailHost(org.slug, config.mailDomain);
  const fromAddress = `${inbox.name}@${sendingDomain(sender, org.slug, config)}`;
  const id = newId('msg');
  await insertOutbound(q, orgId, {
    id,
    category: 'transactional',
    status: 'queued',
    recipient_address: org.email,
    from_address: `"${org.name.replace(/["\\\r\n]/g, '')}" <${fromAddress}>`,
    person_id: null,
    template_id: null,
    template_version: null,
    subject: notice.subject,
    body_html: notice.text
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('\n'),
    body_text: notice.text,
    related_entity_type: notice.relatedType,
    related_entity_id: notice.relatedId,
    payload_metadata: { message_id: `<${id}@${host}>`, from_address: fromAddress, inbox_id: inbox.id, notice: true },
    cc: [],
    bcc: [],
    headers: { 'Reply-To': `${inbox.name}@${host}` },
    message_id_header: `<${id}@${host}>`,
    inbox_id: inbox.id,
    conversation_id: null,
    send_request_id: `notice:${id}`,
  });
  return id;
}

/** A file sent with a message. */
export interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * Queues a plain transactional email with files attached (a scheduled report) to each address, one message per
 * address, in the caller's transaction, with its send job; the job queue sends it. Returns the message ids.
 */
export async function queueEmailWithAttachments(
  q: Queryable,
  config: Config,
  orgId: string,
  mail: { to: string[]; subject: string; text: string; relatedType: string; relatedId: string; attachments: Attachment[] },
): Promise<string[]> {
  const org = await organizationProfile(q, orgId);
  if (!org) return [];
  const inbox = await ensureDefaultInbox(q, orgId);
  const sender = await senderOf(q, orgId);
  const host = mailHost(org.slug, config.mailDomain);
  const fromAddress = `${inbox.name}@${sendingDomain(sender, org.slug, config)}`;
  const ids: string[] = [];
  for (const to of mail.to) {
    const id = newId('msg');
    await insertOutbound(q, orgId, {
      id,
      category: 'transactional',
      status: 'queued',
      recipient_address: to,
      from_address: `"${org.name.replace(/["\\\r\n]/g, '')}" <${fromAddress}>`,
      person_id: null,
      template_id: null,
      template_version: null,
      subject: mail.subject,
      body_html: mail.text
        .split('\n\n')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join('\n'),
      body_text: mail.text,
      related_entity_type: mail.relatedType,
      related_entity_id: mail.relatedId,
      payload_metadata: {
        message_id: `<${id}@${host}>`,
        from_address: fromAddress,
        inbox_id: inbox.id,
        attachments: mail.attachments.length,
      },
      cc: [],
      bcc: [],
      headers: { 'Reply-To': `${inbox.name}@${host}` },
      message_id_header: `<${id}@${host}>`,
      inbox_id: inbox.id,
      conversation_id: null,
      send_request_id: `attached:${id}`,
    });
    if (mail.attachments.length)
      await kx(q)
        .insertInto('comm_attachments')
        .values(
          mail.attachments.map((a, i) => ({
            organization_id: orgId,
            message_id: id,
            position: i,
            filename: a.filename,
            content_type: a.contentType,
            content: a.content,
          })),
        )
        .execute();
    ids.push(id);
  }
  return ids;
}

/** A person's contact preferences (one per category; a category never set is opted in), and the change with its audit row. */
export { preferencesOf as contactPreferences, changePreference as setContactPreference } from './delivery.service.ts';
export { BULK_CATEGORIES as OPTIONAL_MAIL_CATEGORIES } from './schemas.ts';
