import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { BULK_CATEGORIES, type Category } from './schemas.ts';

// Suppressions, contact preferences, unsubscribe links and sender settings: SQL only.

export interface SuppressionHit {
  scope: 'platform' | 'organization';
  reason: string;
}
export interface SuppressionRow {
  id: string;
  address: string;
  reason: string;
  source: string;
  created_at: Date;
}
export interface SenderRow {
  from_name: string | null;
  reply_to: string | null;
  sending_domain: string | null;
  dkim_selector: string | null;
  dkim_private_key: string | null;
  dkim_public_key: string | null;
  updated_at: Date;
}
export interface UnsubscribeTokenRow {
  token: string;
  message_id: string;
  person_id: string | null;
  address: string;
  category: string;
  used_at: Date | null;
}

/** Addresses are stored and compared trimmed and lower-cased. */
export const norm = (address: string) => address.trim().toLowerCase();

/** Platform-wide first (it applies to every organization), then the organization's own list. */
export async function suppressionFor(q: Queryable, orgId: string, address: string): Promise<SuppressionHit | null> {
  const a = norm(address);
  const p = (await q.query<{ reason: string }>('SELECT reason FROM comm_platform_suppressions WHERE address = $1', [a]))[0];
  if (p) return { scope: 'platform', reason: p.reason };
  const o = (
    await q.query<{ reason: string }>('SELECT reason FROM comm_suppressions WHERE organization_id = $1 AND address = $2', [orgId, a])
  )[0];
  return o ? { scope: 'organization', reason: o.reason } : null;
}

export async function optedOut(q: Queryable, orgId: string, personId: string | null, category: string): Promise<boolean> {
  if (!personId || !BULK_CATEGORIES.includes(category as Category)) return false;
  const r = await q.query<{ opted_out: boolean }>(
    'SELECT opted_out FROM comm_contact_preferences WHERE organization_id = $1 AND person_id = $2 AND category = $3',
    [orgId, personId, category],
  );
  return r[0]?.opted_out === true;
}

export async function listSuppressions(q: Queryable, orgId: string, f: { address?: string; limit: number; offset: number }) {
  return q.query<SuppressionRow>(
    `SELECT id, address, reason, source, created_at FROM comm_suppressions WHERE organization_id = $1 AND ($2::text IS NULL OR address = $2)
      ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [orgId, f.address ? norm(f.address) : null, f.limit + 1, f.offset],
  );
}

/** The new entry, or null when the address is already listed. */
export async function insertSuppression(
  q: Queryable,
  orgId: string,
  address: string,
  reason: string,
  source: string,
): Promise<SuppressionRow | null> {
  return (
    (
      await q.query<SuppressionRow>(
        `INSERT INTO comm_suppressions (organization_id, id, address, reason, source) VALUES ($1,$2,$3,$4,$5) ON CONFLICT
          (organization_id, address) DO NOTHING
     RETURNING id, address, reason, source, created_at`,
        [orgId, newId('sup'), norm(address), reason, source],
      )
    )[0] ?? null
  );
}

export async function suppressionByAddress(q: Queryable, orgId: string, address: string): Promise<SuppressionRow | null> {
  return (
    (
      await q.query<SuppressionRow>(
        'SELECT id, address, reason, source, created_at FROM comm_suppressions WHERE organization_id = $1 AND address = $2',
        [orgId, norm(address)],
      )
    )[0] ?? null
  );
}

/** The removed entry's address, or null when there was none. */
export async function deleteSuppression(q: Queryable, orgId: string, id: string): Promise<string | null> {
  return (
    (
      await q.query<{ address: string }>('DELETE FROM comm_suppressions WHERE organization_id = $1 AND id = $2 RETURNING address', [
        orgId,
        id,
      ])
    )[0]?.address ?? null
  );
}

/** Platform list: only the CLI and hard bounces write here. */
export async function addPlatformSuppression(q: Queryable, address: string, reason: string, source: 'cli' | 'hard_bounce') {
  await q.query('INSERT INTO comm_platform_suppressions (address, reason, source) VALUES ($1,$2,$3) ON CONFLICT (address) DO NOTHING', [
    norm(address),
    reason,
    source,
  ]);
}
export async function removePlatformSuppression(q: Queryable, address: string) {
  return (await q.query('DELETE FROM comm_platform_suppressions WHERE address = $1 RETURNING address', [norm(address)])).length > 0;
}
export async function listPlatformSuppressions(q: Queryable) {
  return q.query<{ address: string; reason: string; source: string; created_at: Date }>(
    'SELECT address, reason, source, created_at FROM comm_platform_suppressions ORDER BY created_at DESC',
  );
}

export async function preferenceRows(q: Queryable, orgId: string, personId: string) {
  return q.query<{ category: string; opted_out: boolean; source: string; updated_at: Date }>(
    'SELECT category, opted_out, source, updated_at FROM comm_contact_preferences WHERE organization_id = $1 AND person_id = $2',
    [orgId, personId],
  );
}

/** Sets a preference; its time changes only when the value does. */
export async function upsertPreference(
  q: Queryable,
  orgId: string,
  personId: string,
  category: string,
  optedOutValue: boolean,
  source: string,
) {
  await q.query(
    `INSERT INTO comm_contact_preferences (organization_id, person_id, category, opted_out, source) VALUES ($1,$2,$3,$4,$5)
     ON CONFLICT (organization_id, person_id, category) DO UPDATE SET opted_out = EXCLUDED.opted_out, source = EXCLUDED.source,
       updated_at = CASE WHEN comm_contact_preferences.opted_out = EXCLUDED.opted_out THEN comm_contact_preferences.updated_at
       ELSE now() END`,
    [orgId, personId, category, optedOutValue, source],
  );
}

export async function insertUnsubscribeToken(
  q: Queryable,
  orgId: string,
  t: { token: string; messageId: string; personId: string | null; address: string; category: string },
) {
  await q.query(
    'INSERT INTO comm_unsubscribe_tokens (organization_id, token, message_id, person_id, address, category) VALUES ($1,$2,$3,$4,$5,$6)',
    [orgId, t.token, t.messageId, t.personId, norm(t.address), t.category],
  );
}

export async function unsubscribeToken(q: Queryable, orgId: string, token: string): Promise<UnsubscribeTokenRow | null> {
  return (
    (
      await q.query<UnsubscribeTokenRow>(
        'SELECT token, message_id, person_id, address, category, used_at FROM comm_unsubscribe_tokens WHERE organization_id = $1 ' +
          'AND token = $2',
        [orgId, token],
      )
    )[0] ?? null
  );
}

/** True the first time a token is used. */
export async function markTokenUsed(q: Queryable, orgId: string, token: string): Promise<boolean> {
  return (
    (
      await q.query(
        'UPDATE comm_unsubscribe_tokens SET used_at = now() WHERE organization_id = $1 AND token = $2 AND used_at IS NULL RETURNING token',
        [orgId, token],
      )
    ).length > 0
  );
}

export async function senderOf(q: Queryable, orgId: string): Promise<SenderRow | null> {
  return (
    (
      await q.query<SenderRow>(
        'SELECT from_name, reply_to, sending_domain, dkim_selector, dkim_private_key, dkim_public_key, updated_at FROM ' +
          'comm_sender_settings WHERE organization_id = $1',
        [orgId],
      )
    )[0] ?? null
  );
}

/** Stores a DKIM key unless the organization already has one. */
export async function insertDkimIfMissing(q: Queryable, orgId: string, k: { selector: string; privateKey: string; publicKey: string }) {
  await q.query(
    `INSERT INTO comm_sender_settings (organization_id, dkim_selector, dkim_private_key, dkim_public_key) VALUES ($1,$2,$3,$4)
     ON CONFLICT (organization_id) DO UPDATE SET dkim_selector = EXCLUDED.dkim_selector, dkim_private_key = EXCLUDED.dkim_private_key,
       dkim_public_key = EXCLUDED.dkim_public_key, updated_at = now() WHERE comm_sender_settings.dkim_private_key IS NULL`,
    [orgId, k.selector, k.privateKey, k.publicKey],
  );
}

/** Writes the sender settings; a key given replaces the DKIM key. */
export async function updateSender(
  q: Queryable,
  orgId: string,
  v: { from_name: string | null; reply_to: string | null; sending_domain: string | null },
  k: { selector: string; privateKey: string; publicKey: string } | null,
) {
  await q.query(
    `UPDATE comm_sender_settings SET from_name = $2, reply_to = $3, sending_domain = $4,
       dkim_selector = coalesce($5, dkim_selector), dkim_private_key = coalesce($6, dkim_private_key), dkim_public_key =
       coalesce($7, dkim_public_key), updated_at = now()
     WHERE organization_id = $1`,
    [orgId, v.from_name, v.reply_to, v.sending_domain, k?.selector ?? null, k?.privateKey ?? null, k?.publicKey ?? null],
  );
}
