import { generateKeyPairSync } from 'node:crypto';
import type { Queryable } from '../../platform/db/db.ts';
import type { Config } from '../../config.ts';
import { base62 } from '../../platform/ids.ts';
import { audit } from '../../platform/audit.ts';
import { mailHost } from './inboxes.service.ts';

export interface SenderRow {
  from_name: string | null; reply_to: string | null; sending_domain: string | null; dkim_selector: string | null;
  dkim_private_key: string | null; dkim_public_key: string | null; updated_at: Date;
}

export async function senderOf(q: Queryable, orgId: string): Promise<SenderRow | null> {
  return (await q.query<SenderRow>('SELECT from_name, reply_to, sending_domain, dkim_selector, dkim_private_key, dkim_public_key, updated_at FROM comm_sender_settings WHERE organization_id = $1', [orgId]))[0] ?? null;
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
export function sendingDomain(s: SenderRow | null, slug: string, config: Config) {
  return s?.sending_domain ?? mailHost(slug, config.mailDomain);
}

export function dnsRecords(s: SenderRow | null, slug: string, config: Config, providerHosts: string[]) {
  const domain = sendingDomain(s, slug, config);
  const records: { type: string; name: string; value: string; purpose: string }[] = [];
  if (s?.dkim_selector && s.dkim_public_key) {
    records.push({ type: 'TXT', name: `${s.dkim_selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${s.dkim_public_key}`, purpose: 'DKIM: receivers check the signature Ark adds to every message' });
  }
  const hosts = [...new Set(providerHosts)].filter((h) => !/^(127\.|localhost$|::1$)/.test(h));
  records.push({ type: 'TXT', name: domain, value: `v=spf1 a mx ${hosts.map((h) => `a:${h}`).join(' ')}${hosts.length ? ' ' : ''}~all`, purpose: 'SPF: the servers allowed to send for the domain (add your SMTP providers\' own include: terms)' });
  records.push({ type: 'TXT', name: `_dmarc.${domain}`, value: `v=DMARC1; p=quarantine; adkim=r; aspf=r; rua=mailto:dmarc@${domain}`, purpose: 'DMARC: what receivers do with mail failing SPF and DKIM' });
  return records;
}

/** Makes sure the organization has a DKIM key for its current sending domain. */
export async function ensureDkim(q: Queryable, orgId: string): Promise<SenderRow> {
  const cur = await senderOf(q, orgId);
  if (cur?.dkim_private_key) return cur;
  const k = newDkimKey();
  await q.query(
    `INSERT INTO comm_sender_settings (organization_id, dkim_selector, dkim_private_key, dkim_public_key) VALUES ($1,$2,$3,$4)
     ON CONFLICT (organization_id) DO UPDATE SET dkim_selector = EXCLUDED.dkim_selector, dkim_private_key = EXCLUDED.dkim_private_key,
       dkim_public_key = EXCLUDED.dkim_public_key, updated_at = now() WHERE comm_sender_settings.dkim_private_key IS NULL`,
    [orgId, k.selector, k.privateKey, k.publicKey],
  );
  return (await senderOf(q, orgId)) as SenderRow;
}

export async function updateSender(q: Queryable, orgId: string, actor: string, b: { from_name?: string | null; reply_to?: string | null; sending_domain?: string | null }) {
  const cur = await ensureDkim(q, orgId);
  const domainChanged = b.sending_domain !== undefined && (b.sending_domain?.toLowerCase() ?? null) !== cur.sending_domain;
  // A new sending domain gets a new key: the old selector's record lives in the old domain's DNS.
  const k = domainChanged ? newDkimKey() : null;
  await q.query(
    `UPDATE comm_sender_settings SET from_name = $2, reply_to = $3, sending_domain = $4,
       dkim_selector = coalesce($5, dkim_selector), dkim_private_key = coalesce($6, dkim_private_key), dkim_public_key = coalesce($7, dkim_public_key), updated_at = now()
     WHERE organization_id = $1`,
    [orgId, b.from_name !== undefined ? b.from_name : cur.from_name, b.reply_to !== undefined ? b.reply_to : cur.reply_to,
      b.sending_domain !== undefined ? (b.sending_domain?.toLowerCase() ?? null) : cur.sending_domain, k?.selector ?? null, k?.privateKey ?? null, k?.publicKey ?? null],
  );
  await audit(q, orgId, actor, 'update', 'sender_settings', orgId, { ...b, dkim_rotated: !!k });
  return (await senderOf(q, orgId)) as SenderRow;
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
