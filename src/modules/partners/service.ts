/** Outside organizations (partners), their locations and the people affiliated with them. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { setClause } from '../../platform/db/sql.ts';
import { isEmail, isHttpUrl, normalizePhone } from '../../platform/validators.ts';
import { personExists } from '../people/public.ts';
import type { AffiliationT, LocationT, PartnerT } from './schemas.ts';

const PCOLS = 'id, kind, name, contact_name, email, phone, website, notes, created_at, updated_at';
const LCOLS = 'id, partner_id, name, line1, line2, city, state, postal_code, country, phone, hours, created_at, updated_at';
const ACOLS = `id, partner_id, person_id, role, to_char(valid_from, 'YYYY-MM-DD') AS valid_from,
  to_char(valid_until, 'YYYY-MM-DD') AS valid_until,
  created_at, updated_at`;
export const PARTNER_COLUMNS = ['kind', 'name', 'contact_name', 'email', 'phone', 'website', 'notes'] as const;
export const LOCATION_COLUMNS = ['name', 'line1', 'line2', 'city', 'state', 'postal_code', 'country', 'phone', 'hours'] as const;
export const AFFILIATION_COLUMNS = ['role', 'valid_from', 'valid_until'] as const;

type Body = Record<string, unknown>;
const defined = (b: Body) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));

function checkPartner(b: Body, country: string): Body {
  const out = defined(b);
  if (typeof out.email === 'string' && !isEmail(out.email)) throw invalid({ email: ['is not an email address'] });
  if (typeof out.website === 'string' && !isHttpUrl(out.website)) throw invalid({ website: ['is not an http(s) address'] });
  if (typeof out.phone === 'string') {
    const e164 = normalizePhone(out.phone, country);
    if (!e164) throw invalid({ phone: ['is not a phone number'] });
    out.phone = e164;
  }
  return out;
}
function checkRange(from: unknown, until: unknown) {
  if (typeof from === 'string' && typeof until === 'string' && until < from)
    throw invalid({ valid_until: ['must not be before valid_from'] });
}

export async function partnerRow(q: Queryable, orgId: string, id: string, lock = false) {
  const r = (
    await q.query<PartnerT>(
      `SELECT ${PCOLS} FROM partners WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL${lock ? ' FOR UPDATE' : ''}`,
      [orgId, id],
    )
  )[0];
  if (!r) throw notFound('partner');
  return r;
}
export async function listPartners(q: Queryable, orgId: string, f: { kind?: string; q?: string; limit: number; offset: number }) {
  return q.query<PartnerT>(
    `SELECT ${PCOLS} FROM partners WHERE organization_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR kind = $2)
        AND ($3::text IS NULL OR lower(name) LIKE '%' || lower($3) || '%') ORDER BY lower(name), id LIMIT $4 OFFSET $5`,
    [orgId, f.kind ?? null, f.q?.replace(/[\\%_]/g, (c) => `\\${c}`) ?? null, f.limit + 1, f.offset],
  );
}
export async function createPartner(db: Db, org: { id: string; country: string }, b: Body, actor: string) {
  const v = checkPartner(b, org.country);
  return db.tx(async (q) => {
    const id = newId('ptn');
    await q.query(
      `INSERT INTO partners (organization_id, id, kind, name, contact_name, email, phone, website, notes)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
      [org.id, id, v.kind, v.name, v.contact_name ?? '', v.email ?? null, v.phone ?? null, v.website ?? null, v.notes ?? ''],
    );
    await audit(q, org.id, actor, 'create', 'partner', id);
    return partnerRow(q, org.id, id);
  });
}
export async function updatePartner(db: Db, org: { id: string; country: string }, id: string, b: Body, actor: string) {
  const v = checkPartner(b, org.country);
  return db.tx(async (q) => {
    await partnerRow(q, org.id, id, true);
    const s = setClause(v, PARTNER_COLUMNS, 3);
    if (s.columns.length) {
      await q.query(`UPDATE partners SET ${s.sql}, updated_at = now() WHERE organization_id = $1 AND id = $2`, [org.id, id, ...s.params]);
      await audit(q, org.id, actor, 'update', 'partner', id, s.columns);
    }
    return partnerRow(q, org.id, id);
  });
}
export async function deletePartner(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, id, true);
    await q.query('UPDATE partners SET deleted_at = now() WHERE organization_id = $1 AND id = $2', [orgId, id]);
    await audit(q, orgId, actor, 'delete', 'partner', id);
  });
}

// Locations.
async function locationRow(q: Queryable, orgId: string, partnerId: string, id: string) {
  const r = (
    await q.query<LocationT>(`SELECT ${LCOLS} FROM partner_locations WHERE organization_id = $1 AND partner_id = $2 AND id = $3`, [
      orgId,
      partnerId,
      id,
    ])
  )[0];
  if (!r) throw notFound('location');
  return r;
}
export async function listLocations(q: Queryable, orgId: string, partnerId: string, limit: number, offset: number) {
  await partnerRow(q, orgId, partnerId);
  return q.query<LocationT>(
    `SELECT ${LCOLS} FROM partner_locations WHERE organization_id = $1 AND partner_id = $2 ORDER BY created_at, id LIMIT $3 OFFSET $4`,
    [orgId, partnerId, limit + 1, offset],
  );
}
function checkLocation(b: Body, country: string): Body {
  const out = defined(b);
  if (typeof out.phone === 'string') {
    const e164 = normalizePhone(out.phone, typeof out.country === 'string' ? out.country : country);
    if (!e164) throw invalid({ phone: ['is not a phone number'] });
    out.phone = e164;
  }
  return out;
}
export async function addLocation(db: Db, org: { id: string; country: string }, partnerId: string, b: Body, actor: string) {
  const v = checkLocation(b, org.country);
  return db.tx(async (q) => {
    await partnerRow(q, org.id, partnerId, true);
    const id = newId('plc');
    await q.query(
      `INSERT INTO partner_locations (organization_id, id, partner_id, name, line1, line2, city, state, postal_code, country, phone, hours)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
      [
        org.id,
        id,
        partnerId,
        v.name ?? '',
        v.line1,
        v.line2 ?? null,
        v.city,
        v.state ?? null,
        v.postal_code ?? null,
        v.country,
        v.phone ?? null,
        v.hours ?? '',
      ],
    );
    await audit(q, org.id, actor, 'create', 'partner_location', id, { partner_id: partnerId });
    return locationRow(q, org.id, partnerId, id);
  });
}
export async function updateLocation(db: Db, org: { id: string; country: string }, partnerId: string, id: string, b: Body, actor: string) {
  const v = checkLocation(b, org.country);
  return db.tx(async (q) => {
    await partnerRow(q, org.id, partnerId, true);
    await locationRow(q, org.id, partnerId, id);
    const s = setClause(v, LOCATION_COLUMNS, 4);
    if (s.columns.length) {
      await q.query(
        `UPDATE partner_locations SET ${s.sql}, updated_at = now() WHERE organization_id = $1 AND partner_id = $2 AND id = $3`,
        [org.id, partnerId, id, ...s.params],
      );
      await audit(q, org.id, actor, 'update', 'partner_location', id, s.columns);
    }
    return locationRow(q, org.id, partnerId, id);
  });
}
export async function deleteLocation(db: Db, orgId: string, partnerId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const r = await q.query('DELETE FROM partner_locations WHERE organization_id = $1 AND partner_id = $2 AND id = $3 RETURNING id', [
      orgId,
      partnerId,
      id,
    ]);
    if (!r.length) throw notFound('location');
    await audit(q, orgId, actor, 'delete', 'partner_location', id, { partner_id: partnerId });
  });
}

// Affiliations.
async function affiliationRow(q: Queryable, orgId: string, partnerId: string, id: string) {
  const r = (
    await q.query<AffiliationT>(`SELECT ${ACOLS} FROM partner_affiliations WHERE organization_id = $1 AND partner_id = $2 AND id = $3`, [
      orgId,
      partnerId,
      id,
    ])
  )[0];
  if (!r) throw notFound('affiliation');
  return r;
}
export async function listAffiliations(q: Queryable, orgId: string, partnerId: string, limit: number, offset: number) {
  await partnerRow(q, orgId, partnerId);
  return q.query<AffiliationT>(
    `SELECT ${ACOLS} FROM partner_affiliations WHERE organization_id = $1 AND partner_id = $2
      ORDER BY valid_until DESC NULLS FIRST, created_at, id LIMIT $3 OFFSET $4`,
    [orgId, partnerId, limit + 1, offset],
  );
}
export async function addAffiliation(db: Db, orgId: string, partnerId: string, b: Body, actor: string) {
  checkRange(b.valid_from, b.valid_until);
  return db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    if (!(await personExists(q, orgId, String(b.person_id)))) throw invalid({ person_id: ['names no live person of this organization'] });
    const id = newId('paf');
    await q.query(
      `INSERT INTO partner_affiliations (organization_id, id, partner_id, person_id, role, valid_from, valid_until)
       VALUES ($1,$2,$3,$4,$5,$6,$7)`,
      [orgId, id, partnerId, b.person_id, b.role, b.valid_from ?? null, b.valid_until ?? null],
    );
    await audit(q, orgId, actor, 'create', 'partner_affiliation', id, { partner_id: partnerId, person_id: b.person_id });
    return affiliationRow(q, orgId, partnerId, id);
  });
}
export async function updateAffiliation(db: Db, orgId: string, partnerId: string, id: string, b: Body, actor: string) {
  return db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const cur = await affiliationRow(q, orgId, partnerId, id);
    checkRange(b.valid_from === undefined ? cur.valid_from : b.valid_from, b.valid_until === undefined ? cur.valid_until : b.valid_until);
    const s = setClause(defined(b), AFFILIATION_COLUMNS, 4);
    if (s.columns.length) {
      await q.query(
        `UPDATE partner_affiliations SET ${s.sql}, updated_at = now() WHERE organization_id = $1 AND partner_id = $2 AND id = $3`,
        [orgId, partnerId, id, ...s.params],
      );
      await audit(q, orgId, actor, 'update', 'partner_affiliation', id, s.columns);
    }
    return affiliationRow(q, orgId, partnerId, id);
  });
}
export async function deleteAffiliation(db: Db, orgId: string, partnerId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const r = await q.query('DELETE FROM partner_affiliations WHERE organization_id = $1 AND partner_id = $2 AND id = $3 RETURNING id', [
      orgId,
      partnerId,
      id,
    ]);
    if (!r.length) throw notFound('affiliation');
    await audit(q, orgId, actor, 'delete', 'partner_affiliation', id, { partner_id: partnerId });
  });
}
