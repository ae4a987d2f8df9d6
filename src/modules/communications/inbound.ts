import type { SMTPServerAddress } from 'smtp-server';
import type { AddressObject, ParsedMail } from 'mailparser';
import type * as MailParser from 'mailparser';
import type * as SmtpServer from 'smtp-server';
import type SanitizeHtml from 'sanitize-html';
import { lazyRequire } from '../../platform/lazy.ts';

const smtpServer = lazyRequire<typeof SmtpServer>('smtp-server');
const mailparser = lazyRequire<typeof MailParser>('mailparser');
const sanitizeHtml = lazyRequire<typeof SanitizeHtml>('sanitize-html');
import type { AddressInfo } from 'node:net';
import type { Db } from '../../platform/db/db.ts';
import type { Config } from '../../config.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { SLUG_PATTERN } from '../../platform/tenancy.ts';
import { ensureDefaultInbox, inboxByName, type InboxRow } from './inboxes.repository.ts';
import { norm } from './delivery.repository.ts';
import { personIdByEmail } from '../people/public.ts';
import { organizationIdBySlug } from '../settings/public.ts';

interface Target {
  orgId: string;
  inbox: InboxRow;
  address: string;
}

/** Role addresses every mail domain must answer (RFC 5321 §4.5.1 for postmaster; RFC 2142 for abuse): they reach the default inbox. */
export const ROLE_ADDRESSES = ['postmaster', 'abuse'];

/**
 * `{inbox}@{slug}.{mail domain}`, or the bare `{slug}@{mail domain}` (the default inbox); postmaster@
 * and abuse@ an organization's domain go to its default inbox too. Null when refused.
 */
export async function resolveRecipient(db: Db, mailDomain: string, address: string): Promise<Target | null> {
  const a = norm(address);
  const at = a.lastIndexOf('@');
  if (at < 1) return null;
  const local = a.slice(0, at).replace(/\+.*$/, '');
  const domain = a.slice(at + 1);
  const md = mailDomain.toLowerCase();
  let slug: string;
  let bare = false;
  if (domain === md) {
    slug = local;
    bare = true;
  } else if (domain.endsWith(`.${md}`)) {
    slug = domain.slice(0, -(md.length + 1));
  } else return null;
  if (!SLUG_PATTERN.test(slug)) return null;
  const orgId = await organizationIdBySlug(db, slug);
  if (!orgId) return null;
  const def = await db.tx((q) => ensureDefaultInbox(q, orgId));
  const inbox = bare || ROLE_ADDRESSES.includes(local) ? def : await inboxByName(db, orgId, local);
  if (!inbox?.is_active) return null;
  return { orgId, inbox, address: a };
}

/** The sender's address; a list of senders (which the types do not declare, but mail can carry) gives its first. */
const addrOf = (m: ParsedMail): string => {
  const from: AddressObject | AddressObject[] | undefined = m.from;
  const senders: AddressObject[] = Array.isArray(from) ? from : from ? [from] : [];
  return senders[0]?.value[0]?.address ?? '';
};

/** Files one received message into its conversation (threaded by In-Reply-To / References). */
export async function storeInbound(
  db: Db,
  target: Target,
  mail: ParsedMail,
): Promise<{ conversationId: string; messageId: string } | null> {
  const { orgId } = target;
  const from = norm(addrOf(mail));
  const refs = [
    ...(mail.inReplyTo ? [mail.inReplyTo] : []),
    ...(Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : []),
  ];
  return db.tx(async (q) => {
    if (mail.messageId) {
      const dup = await kx(q)
        .selectFrom('comm_messages')
        .select(sql`1`.as('one'))
        .where('organization_id', '=', orgId)
        .where('message_id_header', '=', mail.messageId)
        .where('direction', '=', 'inbound')
        .where('inbox_id', '=', target.inbox.id)
        .execute();
      if (dup.length) return null; // the same message delivered twice
    }
    let conversationId: string | null = null;
    if (refs.length) {
      const hit = await kx(q)
        .selectFrom('comm_messages')
        .select(['id', 'conversation_id', 'person_id', 'subject', 'related_entity_type', 'related_entity_id'])
        .where('organization_id', '=', orgId)
        .where('message_id_header', '=', sql<string>`ANY(${refs}::text[])`)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (hit?.conversation_id) conversationId = hit.conversation_id;
      else if (hit) {
        // A reply to mail sent outside a conversation: it starts one in the default inbox.
        const def = await ensureDefaultInbox(q, orgId);
        conversationId = newId('cnv');
        await kx(q)
          .insertInto('comm_conversations')
          .values({
            organization_id: orgId,
            id: conversationId,
            inbox_id: def.id,
            subject: hit.subject,
            contact_address: from,
            suggested_person_id: hit.person_id,
            related_entity_type: hit.related_entity_type,
            related_entity_id: hit.related_entity_id,
          })
          .execute();
        await kx(q)
          .updateTable('comm_messages')
          .set({ conversation_id: conversationId })
          .where('organization_id', '=', orgId)
          .where('id', '=', hit.id)
          .execute();
      }
    }
    const suggested = await personIdByEmail(q, orgId, from);
    if (!conversationId) {
      conversationId = newId('cnv');
      await kx(q)
        .insertInto('comm_conversations')
        .values({
          organization_id: orgId,
          id: conversationId,
          inbox_id: target.inbox.id,
          subject: mail.subject ?? '',
          contact_address: from,
          suggested_person_id: suggested,
        })
        .execute();
    } else {
      await kx(q)
        .updateTable('comm_conversations')
        .set({
          suggested_person_id: sql`coalesce(suggested_person_id, ${suggested})`,
          contact_address: sql`coalesce(contact_address, ${from})`,
        })
        .where('organization_id', '=', orgId)
        .where('id', '=', conversationId)
        .execute();
    }
    const conv = await kx(q)
      .selectFrom('comm_conversations')
      .select(['person_id', 'person_confirmed'])
      .where('organization_id', '=', orgId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
    const id = newId('msg');
    const html = typeof mail.html === 'string' ? sanitizeHtml()(mail.html) : null;
    await kx(q)
      .insertInto('comm_messages')
      .values({
        organization_id: orgId,
        id,
        direction: 'inbound',
        category: 'conversation',
        status: 'received',
        recipient_address: target.address,
        from_address: from,
        person_id: conv?.person_confirmed ? conv.person_id : null,
        subject: mail.subject ?? '',
        body_html: html,
        body_text: mail.text ?? '',
        payload_metadata: JSON.stringify({
          thread_id: conversationId,
          from_address: from,
          inbox_id: target.inbox.id,
          ...(mail.messageId ? { message_id: mail.messageId } : {}),
        }),
        headers: JSON.stringify({
          ...(mail.inReplyTo ? { 'In-Reply-To': mail.inReplyTo } : {}),
          ...(refs.length ? { References: refs.join(' ') } : {}),
        }),
        message_id_header: mail.messageId ?? null,
        inbox_id: target.inbox.id,
        conversation_id: conversationId,
      })
      .execute();
    await kx(q)
      .updateTable('comm_conversations')
      .set({ last_message_at: sql`now()`, status: 'open', updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', conversationId)
      .execute();
    return { conversationId, messageId: id };
  });
}

export interface InboundListener {
  port: number;
  close(): Promise<void>;
}

/** Ark's own SMTP listener: accepts mail for active inboxes, refuses retired or unknown ones at RCPT (550). */
export async function startInboundListener(
  db: Db,
  config: Pick<Config, 'mailDomain'>,
  opts: { port: number; host?: string; maxBytes?: number },
): Promise<InboundListener> {
  const server = new (smtpServer().SMTPServer)({
    name: config.mailDomain,
    banner: 'Ark',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    size: opts.maxBytes ?? 25 * 1024 * 1024,
    onRcptTo(address: SMTPServerAddress, _session, cb) {
      resolveRecipient(db, config.mailDomain, address.address).then(
        (t) => {
          if (!t) return cb(Object.assign(new Error(`5.1.1 <${address.address}>: no such mailbox here`), { responseCode: 550 }));
          cb();
        },
        () => cb(Object.assign(new Error('4.3.0 try again later'), { responseCode: 451 })),
      );
    },
    onData(stream, session, cb) {
      mailparser()
        .simpleParser(stream)
        .then(
          async (mail) => {
            for (const r of session.envelope.rcptTo) {
              const t = await resolveRecipient(db, config.mailDomain, r.address);
              if (t) await storeInbound(db, t, mail);
            }
            cb();
          },
          () => cb(Object.assign(new Error('4.3.0 could not store the message; try again later'), { responseCode: 451 })),
        );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  server.on('error', () => undefined);
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
