import { generateKeyPairSync } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Config } from '../../config.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { base62 } from '../../platform/ids.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { isEmail } from '../../platform/validators.ts';
import { pageB } from '../../platform/pagination.ts';
import * as repo from './delivery.repository.ts';
import { ensureDefaultInbox } from './inboxes.repository.ts';
import { mailHost } from './inboxes.service.ts';
import { parseProviders } from './outbound.ts';
import { personExists } from '../people/public.ts';
import {
  BULK_CATEGORIES,
  CATEGORIES,
  type Category,
  type PreferenceBodyT,
  type PreferenceParamsT,
  type SenderUpdateBodyT,
  type SuppressionCreateBodyT,
  type SuppressionListQueryT,
} from './schemas.ts';

// Suppressions, contact preferences, one-click unsubscribe and the sender identity: rules, transactions, audit.

export async function listSuppressions(db: Queryable, orgId: string, query: SuppressionListQueryT) {
  return pageB(await repo.listSuppressions(db, orgId, query), query.limit, query.offset);
}

/** Adds an address (idempotent: an address already listed keeps its first reason; only a new entry is audited). */
export async function addSuppression(q: Queryable, orgId: string, actor: string | null, address: string, reason: string, source: string) {
  const made = await repo.insertSuppression(q, orgId, address, reason, source);
  if (made) {
    await audit(q, orgId, actor, 'create', 'suppression', made.id, { address: made.address, reason, source });
    return { row: made, created: true };
  }
  return { row: (await repo.suppressionByAddress(q, orgId, address)) as repo.SuppressionRow, created: false };
}

/** POST /suppressions. */
export async function suppress(db: Db, orgId: string, actor: string, b: SuppressionCreateBodyT) {
  if (!isEmail(b.address)) throw invalid({ address: ['must be an email address'] });
  return db.tx((q) => addSuppression(q, orgId, actor, b.address, b.reason ?? 'manual', 'api'));
}

export async function removeSuppression(db: Db, orgId: string, actor: string, id: string) {
  await db.tx(async (q) => {
    const address = await repo.deleteSuppression(q, orgId, id);
    if (address === null) throw notFound('suppression');
    await audit(q, orgId, actor, 'delete', 'suppression', id, { address });
  });
}

/** One entry per category; a category never set is opted in. */
export async function preferencesOf(q: Queryable, orgId: string, personId: string) {
  if (!(await personExists(q, orgId, personId))) throw notFound('person');
  const rows = await repo.preferenceRows(q, orgId, personId);
  return {
    person_id: personId,
    preferences: CATEGORIES.map((c) => {
      const r = rows.find((x) => x.category === c);
      return {
        category: c,
        opted_out: r?.opted_out ?? false,
        source: r?.source ?? null,
        updated_at: r?.updated_at ?? null,
        can_opt_out: c !== 'transactional',
      };
    }),
  };
}

async function setPreference(
  q: Queryable,
  orgId: string,
  actor: string | null,
  personId: string,
  category: string,
  optedOutValue: boolean,
  source: string,
) {
  if (!BULK_CATEGORIES.includes(category as Category))
    throw invalid({ category: ['transactional mail (receipts, application updates) cannot be opted out of'] });
  await repo.upsertPreference(q, orgId, personId, category, optedOutValue, source);
  await audit(q, orgId, actor, optedOutValue ? 'opt_out' : 'opt_in', 'person', personId, { category, source });
}

/** PUT a person's preference: the person must be on file; the change and its audit row are one transaction. */
export async function changePreference(db: Db, orgId: string, actor: string, params: PreferenceParamsT, b: PreferenceBodyT) {
  return db.tx(async (q) => {
    await preferencesOf(q, orgId, params.person_id);
    await setPreference(q, orgId, actor, params.person_id, params.category, b.opted_out, 'api');
    return preferencesOf(q, orgId, params.person_id);
  });
}

export async function unsubscribeLink(q: Queryable, orgId: string, token: string) {
  const t = await repo.unsubscribeToken(q, orgId, token);
  if (!t) throw notFound('unsubscribe link');
  return t;
}

/**
 * One-click unsubscribe: the person is opted out of the message's category, an address not on file
 * is suppressed. Idempotent; the first use is audited. One transaction.
 */
export async function unsubscribe(db: Db, orgId: string, token: string) {
  const t = await unsubscribeLink(db, orgId, token);
  await db.tx(async (q) => {
    if (t.person_id) await setPreference(q, orgId, null, t.person_id, t.category, true, 'unsubscribe');
    else await addSuppression(q, orgId, null, t.address, `unsubscribed from ${t.category}`, 'unsubscribe');
    if (await repo.markTokenUsed(q, orgId, t.token))
      await audit(q, orgId, 'unsubscribe-link', 'unsubscribe', 'message', t.message_id, { category: t.category });
  });
  return { unsubscribed: true, category: t.category, address: t.address };
}

/** RSA 2048 key pair for DKIM: private PEM, public key as base64 DER (the `p=` of the TXT record). */
export function newDkimKey(): { privateKey: string; publicKey: string; selector: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    selector: `ark${base62(6).toLowerCase()}`,
  };
}

/** The domain mail is sent from: the organization's own sending domain, or its Ark mail host. */
export function sendingDomain(s: repo.SenderRow | null, slug: string, config: Config) {
  return s?.sending_domain ?? mailHost(slug, config.mailDomain);
}

export function dnsRecords(s: repo.SenderRow | null, slug: string, config: Config, providerHosts: string[]) {
  const domain = sendingDomain(s, slug, config);
  const records: { type: string; name: string; value: string; purpose: string }[] = [];
  if (s?.dkim_selector && s.dkim_public_key) {
    records.push({
      type: 'TXT',
      name: `${s.dkim_selector}._domainkey.${domain}`,
      value: `v=DKIM1; k=rsa; p=${s.dkim_public_key}`,
      purpose: 'DKIM: receivers check the signature Ark adds to every message',
    });
  }
  const hosts = [...new Set(providerHosts)].filter((h) => !/^(127\.|localhost$|::1$)/.test(h));
  records.push({
    type: 'TXT',
    name: domain,
    value: `v=spf1 a mx ${hosts.map((h) => `a:${h}`).join(' ')}${hosts.length ? ' ' : ''}~all`,
    purpose: "SPF: the servers allowed to send for the domain (add your SMTP providers' own include: terms)",
  });
  records.push({
    type: 'TXT',
    name: `_dmarc.${domain}`,
    value: `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:dmarc@${domain}`,
    purpose: 'DMARC: what receivers do with mail failing SPF and DKIM',
  });
  return records;
}

/** Makes sure the organization has a DKIM key for its current sending domain. */
export async function ensureDkim(q: Queryable, orgId: string): Promise<repo.SenderRow> {
  const cur = await repo.senderOf(q, orgId);
  if (cur?.dkim_private_key) return cur;
  await repo.insertDkimIfMissing(q, orgId, newDkimKey());
  return (await repo.senderOf(q, orgId)) as repo.SenderRow;
}

function safeHosts(spec: string | undefined): string[] {
  try {
    return parseProviders(spec)
      .filter((p) => !p.dir)
      .map((p) => p.host);
  } catch {
    return [];
  }
}

function presentSender(s: repo.SenderRow, org: Organization, config: Config) {
  const domain = sendingDomain(s, org.slug, config);
  return {
    from_name: s.from_name ?? org.name,
    from_address: `hello@${domain}`,
    reply_to: s.reply_to,
    sending_domain: domain,
    custom_domain: !!s.sending_domain,
    dkim_selector: s.dkim_selector,
    dns_records: dnsRecords(s, org.slug, config, safeHosts(config.smtpProviders)),
    updated_at: s.updated_at,
  };
}

/** The sender identity; the default inbox and a DKIM key are made at first use. */
export async function readSender(db: Db, config: Config, org: Organization) {
  const s = await db.tx(async (q) => {
    await ensureDefaultInbox(q, org.id);
    return ensureDkim(q, org.id);
  });
  return presentSender(s, org, config);
}

/** A new sending domain gets a new DKIM key: the old selector's record lives in the old domain's DNS. */
export async function changeSender(db: Db, config: Config, org: Organization, actor: string, b: SenderUpdateBodyT) {
  if (b.reply_to && !isEmail(b.reply_to)) throw invalid({ reply_to: ['must be an email address'] });
  if (b.sending_domain && !/^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(b.sending_domain))
    throw invalid({ sending_domain: ['must be a domain name such as mail.example.org'] });
  if (
    b.sending_domain &&
    b.sending_domain.toLowerCase().endsWith(`.${config.mailDomain}`) &&
    b.sending_domain.toLowerCase() !== mailHost(org.slug, config.mailDomain)
  ) {
    throw invalid({ sending_domain: ["must be the organization's own domain"] });
  }
  const s = await db.tx(async (q) => {
    const cur = await ensureDkim(q, org.id);
    const domainChanged = b.sending_domain !== undefined && (b.sending_domain?.toLowerCase() ?? null) !== cur.sending_domain;
    const k = domainChanged ? newDkimKey() : null;
    await repo.updateSender(
      q,
      org.id,
      {
        from_name: b.from_name !== undefined ? b.from_name : cur.from_name,
        reply_to: b.reply_to !== undefined ? b.reply_to : cur.reply_to,
        sending_domain: b.sending_domain !== undefined ? (b.sending_domain?.toLowerCase() ?? null) : cur.sending_domain,
      },
      k,
    );
    await audit(q, org.id, actor, 'update', 'sender_settings', org.id, { ...b, dkim_rotated: !!k });
    return (await repo.senderOf(q, org.id)) as repo.SenderRow;
  });
  return presentSender(s, org, config);
}

/** The organization's public address for links in mail (unsubscribe). ARK_PUBLIC_URL may hold `{organization}`. */
export function orgBaseUrl(config: Config, slug: string): string {
  const pub = config.publicUrl;
  if (pub?.includes('{organization}')) return pub.replace('{organization}', slug).replace(/\/+$/, '');
  if (pub) {
    const u = new URL(pub);
    if (!u.hostname.startsWith(`${slug}.`)) u.hostname = `${slug}.${u.hostname}`;
    return u.toString().replace(/\/+$/, '');
  }
  return `http://${slug}.${config.baseDomain}:${config.port}`;
}
