/** A person's further contacts (email, phone, other) and dated addresses. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isEmail, normalizePhone } from '../../platform/validators.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { requireLivePerson } from './live.ts';
import type { AddressT, AddressCreateT, AddressPatchT, ContactCreateT, ContactPatchT, ContactT } from './depth.schemas.ts';

const CCOLS = ['id', 'person_id', 'kind', 'value', 'label', 'preferred', 'opted_out', 'created_at', 'updated_at'] as const;
const contacts = (q: Queryable, orgId: string, personId: string) =>
  kx(q)
    .selectFrom('person_contacts')
    .select(CCOLS)
    .$narrowType<{ kind: ContactT['kind'] }>()
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId);

/** An email checked, a phone in E.164 (the person's address country, else the organization's), other text trimmed. */
export function contactValue(kind: string, value: string, country: string): string {
  const v = value.trim();
  if (kind === 'email') {
    if (!isEmail(v)) throw invalid({ value: ['is not an email address'] });
    return v;
  }
  if (kind === 'phone') {
    const e164 = normalizePhone(v, country);
    if (!e164) throw invalid({ value: ['is not a phone number'] });
    return e164;
  }
  if (!v) throw invalid({ value: ['must not be blank'] });
  return v;
}

const countryOf = (p: { address: Record<string, unknown> | null }, orgCountry: string) =>
  typeof p.address?.country === 'string' ? p.address.country : orgCountry;

export async function listContacts(q: Queryable, orgId: string, personId: string, limit: number, offset: number) {
  await requireLivePerson(q, orgId, personId);
  return contacts(q, orgId, personId)
    .orderBy('kind')
    .orderBy('preferred', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}

async function unsetPreferred(q: Queryable, orgId: string, personId: string, kind: string, except: string) {
  await kx(q)
    .updateTable('person_contacts')
    .set({ preferred: false, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('kind', '=', kind)
    .where('id', '<>', except)
    .where('preferred', '=', true)
    .execute();
}

export async function addContact(db: Db, org: { id: string; country: string }, personId: string, b: ContactCreateT, actor: string) {
  return db.tx(async (q) => {
    const p = await requireLivePerson(q, org.id, personId, true);
    const value = contactValue(b.kind, b.value, countryOf(p, org.country));
    const id = newId('pct');
    await insertContact(q, org.id, {
      id,
      person_id: personId,
      kind: b.kind,
      value,
      label: b.label ?? '',
      preferred: !!b.preferred,
      opted_out: !!b.opted_out,
    });
    if (b.preferred) await unsetPreferred(q, org.id, personId, b.kind, id);
    await audit(q, org.id, actor, 'create', 'person_contact', id, { person_id: personId, kind: b.kind });
    return getContact(q, org.id, personId, id);
  });
}

export async function insertContact(
  q: Queryable,
  orgId: string,
  c: { id: string; person_id: string; kind: string; value: string; label: string; preferred: boolean; opted_out: boolean },
) {
  await kx(q)
    .insertInto('person_contacts')
    .values({
      organization_id: orgId,
      id: c.id,
      person_id: c.person_id,
      kind: c.kind,
      value: c.value,
      label: c.label,
      preferred: c.preferred,
      opted_out: c.opted_out,
    })
    .execute();
}

export async function getContact(q: Queryable, orgId: string, personId: string, id: string): Promise<ContactT> {
  const r = await contacts(q, orgId, personId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('contact');
  return r;
}

export async function updateContact(
  db: Db,
  org: { id: string; country: string },
  personId: string,
  id: string,
  b: ContactPatchT,
  actor: string,
) {
  return db.tx(async (q) => {
    const p = await requireLivePerson(q, org.id, personId, true);
    const cur = await getContact(q, org.id, personId, id);
    const patch: Record<string, unknown> = {};
    if (b.value !== undefined) patch.value = contactValue(cur.kind, b.value, countryOf(p, org.country));
    if (b.label !== undefined) patch.label = b.label;
    if (b.preferred !== undefined) patch.preferred = b.preferred;
    if (b.opted_out !== undefined) patch.opted_out = b.opted_out;
    if (Object.keys(patch).length) {
      await updateRow(q, 'person_contacts', org.id, personId, id, patch, ['value', 'label', 'preferred', 'opted_out']);
      if (b.preferred) await unsetPreferred(q, org.id, personId, cur.kind, id);
      await audit(q, org.id, actor, 'update', 'person_contact', id, Object.keys(b));
    }
    return getContact(q, org.id, personId, id);
  });
}

export async function deleteContact(db: Db, orgId: string, personId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const r = await kx(q)
      .deleteFrom('person_contacts')
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!r.length) throw notFound('contact');
    await audit(q, orgId, actor, 'delete', 'person_contact', id, { person_id: personId });
  });
}

/** Updates the sent columns of one row of a person's table (`table` is one of this module's). */
export async function updateRow(
  q: Queryable,
  table: 'person_contacts' | 'person_addresses' | 'person_notes',
  orgId: string,
  personId: string,
  id: string,
  patch: Record<string, unknown>,
  columns: readonly string[],
) {
  // Only the listed columns of the patch, in that order; the table is one of the three named in the signature.
  const set = Object.fromEntries(columns.filter((c) => c in patch).map((c) => [c, patch[c]]));
  await kx(q)
    .updateTable(table)
    .set({ ...set, updated_at: sql`now()` })
    .where('organization_id', '=', orgId)
    .where('person_id', '=', personId)
    .where('id', '=', id)
    .execute();
}

// Addresses.
const ADDRESS_COLUMNS = ['kind', 'line1', 'line2', 'city', 'state', 'postal_code', 'country', 'valid_from', 'valid_until'] as const;
/** An address's columns; `current` says whether today in the organization's time zone lies within its dates. */
const addresses = (q: Queryable, org: { id: string; time_zone: string }, personId: string) => {
  const today = sql`(now() AT TIME ZONE ${org.time_zone})::date`;
  return kx(q)
    .selectFrom('person_addresses')
    .select(['id', 'person_id', 'kind', 'line1', 'line2', 'city', 'state', 'postal_code', 'country'])
    .select([
      sql<string | null>`to_char(valid_from, 'YYYY-MM-DD')`.as('valid_from'),
      sql<string | null>`to_char(valid_until, 'YYYY-MM-DD')`.as('valid_until'),
      sql<boolean>`((valid_from IS NULL OR valid_from <= ${today}) AND (valid_until IS NULL OR valid_until >= ${today}))`.as('current'),
    ])
    .select(['created_at', 'updated_at'])
    .$narrowType<{ kind: AddressT['kind'] }>()
    .where('organization_id', '=', org.id)
    .where('person_id', '=', personId);
};

function checkRange(from: string | null | undefined, until: string | null | undefined) {
  if (from && until && until < from) throw invalid({ valid_until: ['must not be before valid_from'] });
}

export async function listAddresses(q: Queryable, org: { id: string; time_zone: string }, personId: string, limit: number, offset: number) {
  await requireLivePerson(q, org.id, personId);
  return addresses(q, org, personId)
    .orderBy('kind')
    .orderBy(sql`person_addresses.valid_from DESC NULLS LAST`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
}
export async function getAddress(q: Queryable, org: { id: string; time_zone: string }, personId: string, id: string) {
  const r = await addresses(q, org, personId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('address');
  return r;
}
export async function addAddress(db: Db, org: { id: string; time_zone: string }, personId: string, b: AddressCreateT, actor: string) {
  checkRange(b.valid_from, b.valid_until);
  return db.tx(async (q) => {
    await requireLivePerson(q, org.id, personId, true);
    const id = newId('pad');
    await kx(q)
      .insertInto('person_addresses')
      .values({
        organization_id: org.id,
        id,
        person_id: personId,
        kind: b.kind,
        line1: b.line1,
        line2: b.line2 ?? null,
        city: b.city,
        state: b.state ?? null,
        postal_code: b.postal_code ?? null,
        country: b.country,
        valid_from: b.valid_from ?? null,
        valid_until: b.valid_until ?? null,
      })
      .execute();
    await audit(q, org.id, actor, 'create', 'person_address', id, { person_id: personId, kind: b.kind });
    return getAddress(q, org, personId, id);
  });
}
export async function updateAddress(
  db: Db,
  org: { id: string; time_zone: string },
  personId: string,
  id: string,
  b: AddressPatchT,
  actor: string,
) {
  return db.tx(async (q) => {
    await requireLivePerson(q, org.id, personId, true);
    const cur = await getAddress(q, org, personId, id);
    checkRange(b.valid_from === undefined ? cur.valid_from : b.valid_from, b.valid_until === undefined ? cur.valid_until : b.valid_until);
    const patch = Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
    if (Object.keys(patch).length) {
      await updateRow(q, 'person_addresses', org.id, personId, id, patch, ADDRESS_COLUMNS);
      await audit(q, org.id, actor, 'update', 'person_address', id, Object.keys(patch));
    }
    return getAddress(q, org, personId, id);
  });
}
export async function deleteAddress(db: Db, orgId: string, personId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const r = await kx(q)
      .deleteFrom('person_addresses')
      .where('organization_id', '=', orgId)
      .where('person_id', '=', personId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!r.length) throw notFound('address');
    await audit(q, orgId, actor, 'delete', 'person_address', id, { person_id: personId });
  });
}
