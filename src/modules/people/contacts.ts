/** A person's further contacts (email, phone, other) and dated addresses. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isEmail, normalizePhone } from '../../platform/validators.ts';
import { setClause } from '../../platform/db/sql.ts';
import { requireLivePerson } from './live.ts';
import type { AddressT, AddressCreateT, AddressPatchT, ContactCreateT, ContactPatchT, ContactT } from './depth.schemas.ts';

const CCOLS = 'id, person_id, kind, value, label, preferred, opted_out, created_at, updated_at';

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
  return q.query<ContactT>(
    `SELECT ${CCOLS} FROM person_contacts WHERE organization_id = $1 AND person_id = $2
      ORDER BY kind, preferred DESC, created_at, id LIMIT $3 OFFSET $4`,
    [orgId, personId, limit + 1, offset],
  );
}

async function unsetPreferred(q: Queryable, orgId: string, personId: string, kind: string, except: string) {
  await q.query(
    `UPDATE person_contacts SET preferred = false, updated_at = now()
      WHERE organization_id = $1 AND person_id = $2 AND kind = $3 AND id <> $4 AND preferred`,
    [orgId, personId, kind, except],
  );
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
  await q.query(
    `INSERT INTO person_contacts (organization_id, id, person_id, kind, value, label, preferred, opted_out)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
    [orgId, c.id, c.person_id, c.kind, c.value, c.label, c.preferred, c.opted_out],
  );
}

export async function getContact(q: Queryable, orgId: string, personId: string, id: string): Promise<ContactT> {
  const r = (
    await q.query<ContactT>(`SELECT ${CCOLS} FROM person_contacts WHERE organization_id = $1 AND person_id = $2 AND id = $3`, [
      orgId,
      personId,
      id,
    ])
  )[0];
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
    const r = await q.query('DELETE FROM person_contacts WHERE organization_id = $1 AND person_id = $2 AND id = $3 RETURNING id', [
      orgId,
      personId,
      id,
    ]);
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
  const s = setClause(patch, columns, 4);
  await q.query(`UPDATE ${table} SET ${s.sql}, updated_at = now() WHERE organization_id = $1 AND person_id = $2 AND id = $3`, [
    orgId,
    personId,
    id,
    ...s.params,
  ]);
}

// Addresses.
const ADDRESS_COLUMNS = ['kind', 'line1', 'line2', 'city', 'state', 'postal_code', 'country', 'valid_from', 'valid_until'] as const;
const ACOLS = `id, person_id, kind, line1, line2, city, state, postal_code, country, to_char(valid_from, 'YYYY-MM-DD') AS valid_from,
  to_char(valid_until, 'YYYY-MM-DD') AS valid_until,
  ((valid_from IS NULL OR valid_from <= (now() AT TIME ZONE $TZ)::date)
   AND (valid_until IS NULL OR valid_until >= (now() AT TIME ZONE $TZ)::date)) AS current,
  created_at, updated_at`;
const acols = (tzParam: string) => ACOLS.replaceAll('$TZ', tzParam);

function checkRange(from: string | null | undefined, until: string | null | undefined) {
  if (from && until && until < from) throw invalid({ valid_until: ['must not be before valid_from'] });
}

export async function listAddresses(q: Queryable, org: { id: string; time_zone: string }, personId: string, limit: number, offset: number) {
  await requireLivePerson(q, org.id, personId);
  return q.query<AddressT>(
    `SELECT ${acols('$5')} FROM person_addresses WHERE organization_id = $1 AND person_id = $2
      ORDER BY kind, valid_from DESC NULLS LAST, created_at, id LIMIT $3 OFFSET $4`,
    [org.id, personId, limit + 1, offset, org.time_zone],
  );
}
export async function getAddress(q: Queryable, org: { id: string; time_zone: string }, personId: string, id: string) {
  const r = (
    await q.query<AddressT>(`SELECT ${acols('$4')} FROM person_addresses WHERE organization_id = $1 AND person_id = $2 AND id = $3`, [
      org.id,
      personId,
      id,
      org.time_zone,
    ])
  )[0];
  if (!r) throw notFound('address');
  return r;
}
export async function addAddress(db: Db, org: { id: string; time_zone: string }, personId: string, b: AddressCreateT, actor: string) {
  checkRange(b.valid_from, b.valid_until);
  return db.tx(async (q) => {
    await requireLivePerson(q, org.id, personId, true);
    const id = newId('pad');
    await q.query(
      `INSERT INTO person_addresses (organization_id, id, person_id, kind, line1, line2, city, state, postal_code, country,
         valid_from, valid_until)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
      [
        org.id,
        id,
        personId,
        b.kind,
        b.line1,
        b.line2 ?? null,
        b.city,
        b.state ?? null,
        b.postal_code ?? null,
        b.country,
        b.valid_from ?? null,
        b.valid_until ?? null,
      ],
    );
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
    const r = await q.query('DELETE FROM person_addresses WHERE organization_id = $1 AND person_id = $2 AND id = $3 RETURNING id', [
      orgId,
      personId,
      id,
    ]);
    if (!r.length) throw notFound('address');
    await audit(q, orgId, actor, 'delete', 'person_address', id, { person_id: personId });
  });
}
