import { personSuppression } from '../people/public.ts';
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Config } from '../../config.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { base62, newId } from '../../platform/ids.ts';
import { AppError, invalid, missing } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isEmail } from '../../platform/validators.ts';
import { type Block, checkBlocks, fillBlocks, fillText, isSafeHref, mergeFieldsIn, renderHtml, renderText, textsOf } from './blocks.ts';
import { fillTemplate, peopleByIds, recordValues } from './fill.ts';
import { templateById } from './templates.repository.ts';
import { ensureDefaultInbox, inboxById, type InboxRow } from './inboxes.repository.ts';
import { mailHost } from './inboxes.service.ts';
import { insertUnsubscribeToken, optedOut, senderOf, suppressionFor, norm } from './delivery.repository.ts';
import { orgBaseUrl, sendingDomain } from './delivery.service.ts';
import { BULK_CATEGORIES, type Category, type SendBodyT } from './schemas.ts';
import * as repo from './messages.repository.ts';
import { messagesByIds, readableMessagesByIds, type MessageRow } from './messages.repository.ts';
import { touchConversation } from './conversations.repository.ts';
import type { Principal } from '../../platform/auth.ts';
import { escapeHtml } from '../../platform/html.ts';
import { personIdByEmail } from '../people/public.ts';

/** A send request as POST /messages takes it (a reply fills in the same fields). */
export type SendInput = SendBodyT;
/** What a conversation reply adds: the thread it belongs to. */
export interface ThreadContext {
  conversationId: string;
  inbox: InboxRow;
  inReplyTo: string | null;
  references: string[];
  to: string;
  personId: string | null;
}

/** Canonical JSON (sorted keys) so the same request always hashes the same. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
export function requestHash(body: Record<string, unknown>): string {
  const { idempotency_key: _k, ...rest } = body;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

/** `payload_metadata.reason` and `error` of a message logged while no provider is set up. */
export const NO_PROVIDER_REASON = 'no_provider';
export const NO_PROVIDER_ERROR = 'not sent: no email provider is set up';

export function providersConfigured(config: Config): boolean {
  return !!config.smtpProviders?.trim();
}

interface Prepared {
  personId: string | null;
  address: string;
  subject: string;
  blocks: Block[];
  templateId: string | null;
  templateVersion: number | null;
  relType: string | null;
  relId: string | null;
}

async function personByEmail(q: Queryable, orgId: string, email: string) {
  return personIdByEmail(q, orgId, norm(email));
}

/** Fills every recipient's copy; refuses (422) while any merge field is unfilled or a link is unsafe. Reads only. */
async function prepare(q: Queryable, org: Organization, b: SendInput, thread?: ThreadContext): Promise<Prepared[]> {
  const recipients: { personId: string | null; address: string }[] = [];
  if (thread) recipients.push({ personId: thread.personId, address: thread.to });
  const personIds = [...new Set([...(b.person_id ? [b.person_id] : []), ...(b.person_ids ?? [])])];
  const people = await peopleByIds(q, org.id, personIds);
  const lost = personIds.filter((id) => !people.some((p) => p.id === id));
  if (lost.length) throw invalid({ person_ids: [`names no person on file: ${lost.join(', ')}`] });
  for (const p of people) recipients.push({ personId: p.id, address: p.email });
  for (const a of b.to_addresses ?? []) recipients.push({ personId: await personByEmail(q, org.id, a), address: a });
  if (!recipients.length) throw missing(['person_id']);

  const template = b.template_id ? await templateById(q, org.id, b.template_id) : null;
  if (b.template_id && !template) throw invalid({ template_id: ['names no template'] });
  const out: Prepared[] = [];
  for (const r of recipients) {
    let subject: string;
    let blocks: Block[];
    let unfilled: string[];
    let rel: { t: string | null; i: string | null } = { t: b.related_entity_type ?? null, i: b.related_entity_id ?? null };
    if (template) {
      const f = await fillTemplate(q, org, template, {
        person_id: r.personId ?? undefined,
        animal_ids: b.animal_ids,
        related_entity_type: b.related_entity_type,
        related_entity_id: b.related_entity_id,
        conversation_id: b.conversation_id,
        variables: { ...(r.personId ? {} : { email: r.address }), ...(b.variables ?? {}) },
      });
      subject = f.subject;
      blocks = f.body_blocks;
      unfilled = f.unfilled;
      rel = { t: f.related_entity_type, i: f.related_entity_id };
    } else {
      const who = r.personId ? await peopleByIds(q, org.id, [r.personId]) : [];
      const values = recordValues(who, [], org.name);
      for (const [k, v] of Object.entries(b.variables ?? {})) values[k] = String(v);
      const subjectT = b.subject ?? '';
      const blocksT = b.body_blocks ?? [];
      subject = fillText(subjectT, values);
      blocks = fillBlocks(blocksT, values);
      unfilled = mergeFieldsIn(textsOf(subjectT, blocksT)).filter((n) => !Object.hasOwn(values, n));
    }
    if (unfilled.length)
      throw invalid(
        { variables: [`some merge fields are still unfilled: ${unfilled.join(', ')}`] },
        `The message still holds unfilled merge fields (${unfilled.join(', ')}); fill them before sending.`,
      );
    const badLink = blocks.flatMap((bl) => bl.runs).find((run) => run.href !== undefined && !isSafeHref(run.href));
    if (badLink) throw invalid({ body_blocks: [`the link ${badLink.href ?? ''} is not an http, https or mailto address`] });
    if (!subject.trim()) throw invalid({ subject: ['must not be empty once filled'] });
    out.push({
      personId: r.personId,
      address: r.address,
      subject,
      blocks,
      templateId: template?.id ?? null,
      templateVersion: template?.version ?? null,
      relType: rel.t,
      relId: rel.i,
    });
  }
  return out;
}

export interface SendResult {
  replayed: boolean;
  idempotency_key: string;
  messages: MessageRow[];
}

/** The idempotency key from the header or the body field; when both are sent they must match. */
export function idempotencyKeyOf(header: string | undefined, field: string | undefined): string | undefined {
  if (header && field && header !== field)
    throw invalid({ idempotency_key: ['the idempotency_key field differs from the Idempotency-Key header'] });
  return field ?? header;
}

/** An earlier request with the same key: its messages as `p` may read them (restricted inboxes' mail only for their access list). */
async function replay(q: Queryable, orgId: string, p: Principal, key: string, hash: string): Promise<SendResult | null> {
  const prior = await repo.sendRequest(q, orgId, key);
  if (!prior) return null;
  if (prior.request_hash !== hash)
    throw invalid(
      { idempotency_key: ['was already used for a different request'] },
      'This Idempotency-Key was already used for a different request; use a new key for a new message.',
    );
  return { replayed: true, idempotency_key: key, messages: await readableMessagesByIds(q, orgId, p, prior.message_ids) };
}

/**
 * Accepts a send request: checks it, then in one transaction claims the idempotency key (a unique
 * row: a concurrent twin waits, then replays), logs every message (queued, or suppressed with the
 * reason), marks new activity in the conversation of a reply, writes the audit row, and queues each queued
 * message's send job (woken on commit). No SMTP here.
 */
export async function send(
  db: Db,
  config: Config,
  org: Organization,
  actor: string,
  p: Principal,
  b: SendInput,
  thread?: ThreadContext,
): Promise<SendResult> {
  const key = b.idempotency_key;
  if (!key) throw missing(['idempotency_key']);
  const hash = requestHash({ ...b, ...(thread ? { thread: thread.conversationId } : {}) });
  const earlier = await replay(db, org.id, p, key, hash);
  if (earlier) return earlier;
  // With no provider, the message is still checked, filled and logged (failed, with the reason), so the
  // team sees what would have gone out; the key is not claimed, so the same request can be sent once a
  // provider is set up.
  const unsent = !providersConfigured(config);

  const errors: Record<string, string[]> = {};
  if (b.template_id && (b.subject !== undefined || b.body_blocks !== undefined))
    errors.template_id = ['send a template_id or a written subject and body_blocks, not both'];
  if (!b.template_id && !thread && (b.subject === undefined || b.body_blocks === undefined)) {
    if (b.subject === undefined && b.body_blocks === undefined) throw missing(['template_id']);
    throw missing([b.subject === undefined ? 'subject' : 'body_blocks']);
  }
  if (b.body_blocks) Object.assign(errors, checkBlocks(b.body_blocks, 'body_blocks'));
  for (const f of ['to_addresses', 'cc', 'bcc'] as const) {
    const bad = (b[f] ?? []).filter((a) => !isEmail(a));
    if (bad.length) errors[f] = [`not email addresses: ${bad.join(', ')}`];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  const prepared = await prepare(db, org, b, thread);

  const result = await db.tx(async (q) => {
    if (!unsent && !(await repo.claimSendRequest(q, org.id, key, hash))) return null;
    const template = b.template_id ? await templateById(q, org.id, b.template_id) : null;
    const category: string = b.category ?? (typeof template?.metadata.category === 'string' ? template.metadata.category : 'transactional');
    const defaultInbox = await ensureDefaultInbox(q, org.id);
    let inbox = thread?.inbox ?? defaultInbox;
    if (b.inbox_id) {
      const chosen = await inboxById(q, org.id, b.inbox_id);
      if (!chosen) throw invalid({ inbox_id: ['names no inbox'] });
      inbox = chosen;
    }
    if (!inbox.is_active) throw invalid({ inbox_id: ['the inbox is retired and cannot be sent from'] });
    const sender = await senderOf(q, org.id);
    const host = mailHost(org.slug, config.mailDomain);
    const fromAddress = `${inbox.name}@${sendingDomain(sender, org.slug, config)}`;
    const fromName = (sender?.from_name ?? org.name).replace(/["\\\r\n]/g, '');
    const replyTo = thread ? `${inbox.name}@${host}` : (sender?.reply_to ?? `${defaultInbox.name}@${host}`);

    const cc: string[] = [];
    const bcc: string[] = [];
    const copiesSuppressed: string[] = [];
    for (const [list, into] of [
      [b.cc ?? [], cc],
      [b.bcc ?? [], bcc],
    ] as const) {
      for (const a of list) {
        if (await suppressionFor(q, org.id, a)) copiesSuppressed.push(a);
        else into.push(a);
      }
    }
    const ids: string[] = [];
    for (const p of prepared) {
      const id = newId('msg');
      const messageId = `<${id}@${host}>`;
      const meta: Record<string, unknown> = { message_id: messageId, from_address: fromAddress, inbox_id: inbox.id };
      if (cc.length) meta.cc = cc;
      if (bcc.length) meta.bcc = bcc;
      if (copiesSuppressed.length) meta.copies_suppressed = copiesSuppressed;
      if (p.templateVersion !== null) meta.template_version = p.templateVersion;
      if (thread) meta.thread_id = thread.conversationId;
      let status = 'queued';
      const hit = await suppressionFor(q, org.id, p.address);
      if (hit) {
        status = 'suppressed';
        Object.assign(meta, { reason: 'suppressed_address', suppression_scope: hit.scope, suppression_reason: hit.reason });
      } else if (await optedOut(q, org.id, p.personId, category)) {
        status = 'suppressed';
        Object.assign(meta, { reason: 'opted_out', suppression_scope: 'organization', suppression_reason: `opted out of ${category}` });
      } else {
        // A person flagged deceased receives no email, whatever the category.
        const person = p.personId ? await personSuppression(q, org.id, p.personId) : null;
        if (person) {
          status = 'suppressed';
          Object.assign(meta, { reason: person.reason, suppression_scope: 'person', suppression_reason: person.detail });
        } else if (unsent) {
          status = 'failed';
          Object.assign(meta, { reason: NO_PROVIDER_REASON, error: NO_PROVIDER_ERROR });
        }
      }
      const headers: Record<string, string> = { 'Reply-To': replyTo };
      let text = renderText(p.blocks);
      let html = renderHtml(p.blocks);
      if (BULK_CATEGORIES.includes(category as Category)) {
        const token = base62(32);
        await insertUnsubscribeToken(q, org.id, { token, messageId: id, personId: p.personId, address: p.address, category });
        const url = `${orgBaseUrl(config, org.slug)}/api/communications/unsubscribe/${token}`;
        headers['List-Unsubscribe'] = `<${url}>`;
        headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
        text += `\n--\nYou receive this from ${org.name}. Unsubscribe: ${url}\n`;
        html += `\n<hr>\n<p>You receive this from ${escapeHtml(org.name)}. <a href="${escapeHtml(url)}">Unsubscribe</a></p>`;
      }
      if (thread?.inReplyTo) {
        headers['In-Reply-To'] = thread.inReplyTo;
        headers.References = [...thread.references, thread.inReplyTo].filter((v, i, all) => all.indexOf(v) === i).join(' ');
      }
      await repo.insertOutbound(q, org.id, {
        id,
        category,
        status,
        recipient_address: p.address,
        from_address: `"${fromName}" <${fromAddress}>`,
        person_id: p.personId,
        template_id: p.templateId,
        template_version: p.templateVersion,
        subject: p.subject,
        body_html: html,
        body_text: text,
        related_entity_type: p.relType,
        related_entity_id: p.relId,
        payload_metadata: meta,
        cc,
        bcc,
        headers,
        message_id_header: messageId,
        inbox_id: inbox.id,
        conversation_id: thread?.conversationId ?? null,
        send_request_id: unsent ? null : key,
      });
      ids.push(id);
    }
    if (!unsent) await repo.setSendRequestMessages(q, org.id, key, ids);
    if (thread) await touchConversation(q, org.id, thread.conversationId);
    await audit(q, org.id, actor, 'send', 'message', ids[0] ?? key, {
      idempotency_key: key,
      messages: ids,
      category,
      ...(unsent ? { not_sent: NO_PROVIDER_REASON } : {}),
    });
    return { replayed: false, idempotency_key: key, messages: await messagesByIds(q, org.id, ids) };
  });
  if (unsent && result)
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Not sent: no email provider is set up (ARK_SMTP_PROVIDERS). The message is in the message log as failed; nothing was sent.',
      undefined,
      undefined,
      undefined,
      { message_id: result.messages[0]?.id ?? '' },
    );
  // Lost the race to a concurrent twin with the same key: it has committed, so replay it.
  return result ?? ((await replay(db, org.id, p, key, hash)) as SendResult);
}

/** POST /messages: the key from the header or the body, then `send`. */
export function sendMessages(
  db: Db,
  config: Config,
  org: Organization,
  actor: string,
  p: Principal,
  body: SendInput,
  headerKey: string | undefined,
): Promise<SendResult> {
  return send(db, config, org, actor, p, { ...body, idempotency_key: idempotencyKeyOf(headerKey, body.idempotency_key) });
}
