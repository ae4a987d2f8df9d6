import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { newId } from '../../platform/ids.ts';
import { BULK_CATEGORIES, type Category } from './schemas.ts';

// Suppressions, contact preferences, unsubscribe links and sender settings: SQL only.

export interface SuppressionHit {
  scope: 'platform' | 'organization';
  reason: string;
}
export type SuppressionRow = Pick<Selectable<DB['comm_suppressions']>, 'id' | 'address' | 'reason' | 'source' | 'created_at'>;
const SUPPRESSION_COLS = ['id', 'address', 'reason', 'source', 'created_at'] as const;
const SENDER_COLS = [
  'from_name',
  'reply_to',
  'sending_domain',
  'dkim_selector',
  'dkim_private_key',
  'dkim_public_key',
  'updated_at',
] as const;
export type SenderRow = Pick<Selectable<DB['comm_sender_settings']>, (typeof SENDER_COLS)[number]>;
const TOKEN_COLS = ['token', 'message_id', 'person_id', 'address', 'category', 'used_at'] as const;
export type UnsubscribeTokenRow = Pick<Selectable<DB['comm_unsubscribe_tokens']>, (typeof TOKEN_COLS)[number]>;

/** Addresses are stored and compared trimmed and lower-cased. */
export const norm = (address: string) => address.trim().toLowerCase();

/** Platform-wide first (it applies to every organization), then the organization's own list. */
export async function suppressionFor(q: Queryable, orgId: string, address: string): Promise<SuppressionHit | null> {
  const a = norm(address);
  const p = await kx(q).selectFrom('comm_platform_suppressions').select('reason').where('address', '=', a).executeTakeFirst();
  if (p) return { scope: 'platform', reason: p.reason };
  const o = await kx(q)
    .selectFrom('comm_suppressions')
    .select('reason')
    .where('organization_id', '=', orgId)
    .where('address', '=', a)
    .executeTakeFirst();
  return o ? { scope: 'organization', reason: o.reason } : null;
}

export async function optedOut(q: Queryable, orgId: string, personId: string | null, category: string): Promise<boolean> {
  if (!personId || !BULK_CATEGORIES.includes(category as Category)) return false;
  const r = await kx(q)
    .selectFrom('comm_contact_preferences')
    .select('opted_out')
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('category', '=', category)
    .executeTakeFirst();
  return r?.opted_out === true;
}

export async function listSuppressions(
  q: Queryable,
  orgId: string,
  f: { address?: string; limit: number; offset: number },
): Promise<SuppressionRow[]> {
  let list = kx(q).selectFrom('comm_suppressions').select(SUPPRESSION_COLS).where('organization_id', '=', orgId);
  if (f.address) list = list.where('address', '=', norm(f.address));
  return list
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
}

/** The new entry, or null when the address is already listed. */
export async function insertSuppression(
  q: Queryable,
  orgId: string,
  address: string,
  reason: string,
  source: string,
): Promise<SuppressionRow | null> {
  const row = await kx(q)
    .insertInto('comm_suppressions')
    .values({ organization_id: orgId, id: newId('sup'), address: norm(address), reason, source })
    .onConflict((oc) => oc.columns(['organization_id', 'address']).doNothing())
    .returning(SUPPRESSION_COLS)
    .executeTakeFirst();
  return row ?? null;
}

export async function suppressionByAddress(q: Queryable, orgId: string, address: string): Promise<SuppressionRow | null> {
  const row = await kx(q)
    .selectFrom('comm_suppressions')
    .select(SUPPRESSION_COLS)
    .where('organization_id', '=', orgId)
    .where('address', '=', norm(address))
    .executeTakeFirst();
  return row ?? null;
}

/** The removed entry's address, or null when there was none. */
export async function deleteSuppression(q: Queryable, orgId: string, id: string): Promise<string | null> {
  const row = await kx(q)
    .deleteFrom('comm_suppressions')
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returning('address')
    .executeTakeFirst();
  return row?.address ?? null;
}

/** Platform list: only the CLI and hard bounces write here. */
export async function addPlatformSuppression(q: Queryable, address: string, reason: string, source: 'cli' | 'hard_bounce') {
  await kx(q)
    .insertInto('comm_platform_suppressions')
    .values({ address: norm(address), reason, source })
    .onConflict((oc) => oc.column('address').doNothing())
    .execute();
}
export async function removePlatformSuppression(q: Queryable, address: string) {
  const row = await kx(q)
    .deleteFrom('comm_platform_suppressions')
    .where('address', '=', norm(address))
    .returning('address')
    .executeTakeFirst();
  return row !== undefined;
}
export async function listPlatformSuppressions(q: Queryable) {
  return kx(q)
    .selectFrom('comm_platform_suppressions')
    .select(['address', 'reason', 'source', 'created_at'])
    .orderBy('created_at', 'desc')
    .execute();
}

export async function preferenceRows(q: Queryable, orgId: string, personId: string) {
  return kx(q)
    .selectFrom('comm_contact_preferences')
    .select(['category', 'opted_out', 'source', 'updated_at'])
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .execute();
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
  await kx(q)
    .insertInto('comm_contact_preferences')
    .values({ organization_id: orgId, person_id: personId, category, opted_out: optedOutValue, source })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'person_id', 'category']).doUpdateSet((eb) => ({
        opted_out: eb.ref('excluded.opted_out'),
        source: eb.ref('excluded.source'),
        updated_at: sql`CASE WHEN comm_contact_preferences.opted_out = EXCLUDED.opted_out THEN comm_contact_preferences.updated_at
          ELSE now() END`,
      })),
    )
    .execute();
}

export async function insertUnsubscribeToken(
  q: Queryable,
  orgId: string,
  t: { token: string; messageId: string; personId: string | null; address: string; category: string },
) {
  await kx(q)
    .insertInto('comm_unsubscribe_tokens')
    .values({
      organization_id: orgId,
      token: t.token,
      message_id: t.messageId,
      person_id: t.personId,
      address: norm(t.address),
      category: t.category,
    })
    .execute();
}

export async function unsubscribeToken(q: Queryable, orgId: string, token: string): Promise<UnsubscribeTokenRow | null> {
  const row = await kx(q)
    .selectFrom('comm_unsubscribe_tokens')
    .select(TOKEN_COLS)
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .executeTakeFirst();
  return row ?? null;
}

/** True the first time a token is used. */
export async function markTokenUsed(q: Queryable, orgId: string, token: string): Promise<boolean> {
  const row = await kx(q)
    .updateTable('comm_unsubscribe_tokens')
    .set({ used_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('token', '=', token)
    .where('used_at', 'is', null)
    .returning('token')
    .executeTakeFirst();
  return row !== undefined;
}

export async function senderOf(q: Queryable, orgId: string): Promise<SenderRow | null> {
  const row = await kx(q).selectFrom('comm_sender_settings').select(SENDER_COLS).where('organization_id', '=', orgId).executeTakeFirst();
  return row ?? null;
}

/** Stores a DKIM key unless the organization already has one. */
export async function insertDkimIfMissing(q: Queryable, orgId: string, k: { selector: string; privateKey: string; publicKey: string }) {
  await kx(q)
    .insertInto('comm_sender_settings')
    .values({ organization_id: orgId, dkim_selector: k.selector, dkim_private_key: k.privateKey, dkim_public_key: k.publicKey })
    .onConflict((oc) =>
      oc
        .column('organization_id')
        .doUpdateSet((eb) => ({
          dkim_selector: eb.ref('excluded.dkim_selector'),
          dkim_private_key: eb.ref('excluded.dkim_private_key'),
          dkim_public_key: eb.ref('excluded.dkim_public_key'),
          updated_at: sql`now()`,
        }))
        .where('comm_sender_settings.dkim_private_key', 'is', null),
    )
    .execute();
}

/** Writes the sender settings; a key given replaces the DKIM key. */
export async function updateSender(
  q: Queryable,
  orgId: string,
  v: { from_name: string | null; reply_to: string | null; sending_domain: string | null },
  k: { selector: string; privateKey: string; publicKey: string } | null,
) {
  await kx(q)
    .updateTable('comm_sender_settings')
    .set({
      from_name: v.from_name,
      reply_to: v.reply_to,
      sending_domain: v.sending_domain,
      dkim_selector: sql`coalesce(${k?.selector ?? null}, dkim_selector)`,
      dkim_private_key: sql`coalesce(${k?.privateKey ?? null}, dkim_private_key)`,
      dkim_public_key: sql`coalesce(${k?.publicKey ?? null}, dkim_public_key)`,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .execute();
}
