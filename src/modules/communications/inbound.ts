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
      const dup = await q.query(
        "SELECT 1 FROM comm_messages WHERE organization_id = $1 AND message_id_header = $2 AND direction = 'inbound' AND inbox_id = $3",
        [orgId, mail.messageId, target.inbox.id],
      );
      if (dup.length) return null; // the same message delivered twice
    }
    let conversationId: string | null = null;
    if (refs.length) {
      const hit = (
        await q.query<{
          id: string;
          conversation_id: string | null;
          person_id: string | null;
          subject: string;
          related_entity_type: string | null;
          related_entity_id: string | null;
        }>(
          `SELECT id, conversation_id, person_id, subject, related_entity_type, related_entity_id FROM comm_messages WHERE
            organization_id = $1 AND message_id_header = ANY($2::text[])
          ORDER BY created_at DESC LIMIT 1`,
          [orgId, refs],
        )
      )[0];
      if (hit?.conversation_id) conversationId = hit.conversation_id;
      else if (hit) {
        // A reply to mail sent outside a conversation: it starts one in the default inbox.
        const def = await ensureDefaultInbox(q, orgId);
        conversationId = newId('cnv');
        await q.query(
          `INSERT INTO comm_conversations (organization_id, id, inbox_id, subject, contact_address, suggested_person_id,
            related_entity_type, related_entity_id)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
          [orgId, conversationId, def.id, hit.subject, from, hit.person_id, hit.related_entity_type, hit.related_entity_id],
        );
        await q.query('UPDATE comm_messages SET conversation_id = $3 WHERE organization_id = $1 AND id = $2', [
          orgId,
          hit.id,
          conversationId,
        ]);
      }
    }
    const suggested = await personIdByEmail(q, orgId, from);
    if (!conversationId) {
      conversationId = newId('cnv');
      await q.query(
        'INSERT INTO comm_conversations (organization_id, id, inbox_id, subject, contact_address, suggested_person_id) VALUES ' +
          '($1,$2,$3,$4,$5,$6)',
        [orgId, conversationId, target.inbox.id, mail.subject ?? '', from, suggested],
      );
    } else {
      await q.query(
        'UPDATE comm_conversations SET suggested_person_id = coalesce(suggested_person_id, $3), contact_address = ' +
          'coalesce(contact_address, $4) WHERE organization_id = $1 AND id = $2',
        [orgId, conversationId, suggested, from],
      );
    }
    const conv = (
      await q.query<{ person_id: string | null; person_confirmed: boolean }>(
        'SELECT person_id, person_confirmed FROM comm_conversations WHERE organization_id = $1 AND id = $2',
        [orgId, conversationId],
      )
    )[0];
    const id = newId('msg');
    const html = typeof mail.html === 'string' ? sanitizeHtml()(mail.html) : null;
    await q.query(
      `INSERT INTO comm_messages (organization_id, id, direction, category, status, recipient_address, from_address, person_id,
        subject, body_html, body_text,
         payload_metadata, headers, message_id_header, inbox_id, conversation_id)
       VALUES ($1,$2,'inbound','conversation','received',$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`,
      [
        orgId,
        id,
        target.address,
        from,
        conv?.person_confirmed ? conv.person_id : null,
        mail.subject ?? '',
        html,
        mail.text ?? '',
        JSON.stringify({
          thread_id: conversationId,
          from_address: from,
          inbox_id: target.inbox.id,
          ...(mail.messageId ? { message_id: mail.messageId } : {}),
        }),
        JSON.stringify({
          ...(mail.inReplyTo ? { 'In-Reply-To': mail.inReplyTo } : {}),
          ...(refs.length ? { References: refs.join(' ') } : {}),
        }),
        mail.messageId ?? null,
        target.inbox.id,
        conversationId,
      ],
    );
    await q.query(
      "UPDATE comm_conversations SET last_message_at = now(), status = 'open', updated_at = now() WHERE organization_id = $1 AND id = $2",
      [orgId, conversationId],
    );
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
