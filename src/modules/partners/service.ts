/** Outside organizations (partners), their locations and the people affiliated with them. */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql, type DB, type Insertable, type Selectable, type Updateable } from '../../platform/db/kysely.ts';
import { isEmail, isHttpUrl, normalizePhone } from '../../platform/validators.ts';
import { personExists } from '../people/public.ts';
import type { AffiliationT, LocationT, PartnerT } from './schemas.ts';

const PCOLS = ['id', 'kind', 'name', 'contact_name', 'email', 'phone', 'website', 'notes', 'created_at', 'updated_at'] as const;
const LCOLS = [
  'id',
  'partner_id',
  'name',
  'line1',
  'line2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone',
  'hours',
  'created_at',
  'updated_at',
] as const;
const ACOLS = [
  'id',
  'partner_id',
  'person_id',
  'role',
  sql<string | null>`to_char(valid_from, 'YYYY-MM-DD')`.as('valid_from'),
  sql<string | null>`to_char(valid_until, 'YYYY-MM-DD')`.as('valid_until'),
  'created_at',
  'updated_at',
] as const;
/** The stored partner as its wire shape (its kind is checked on write). */
const toPartner = (r: Pick<Selectable<DB['partners']>, (typeof PCOLS)[number]>): PartnerT => ({ ...r, kind: r.kind as PartnerT['kind'] });
/** The sent columns of `cols` present in the checked body (the body is validated by the route's schema). */
function pick<T>(v: Body, cols: readonly string[]): Updateable<T> {
  return Object.fromEntries(cols.filter((c) => c in v).map((c) => [c, v[c]])) as Updateable<T>;
}
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
  let one = kx(q)
    .selectFrom('partners')
    .select(PCOLS)
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (lock) one = one.forUpdate();
  const r = await one.executeTakeFirst();
  if (!r) throw notFound('partner');
  return toPartner(r);
}
export async function listPartners(q: Queryable, orgId: string, f: { kind?: string; q?: string; limit: number; offset: number }) {
  let list = kx(q).selectFrom('partners').select(PCOLS).where('organization_id', '=', orgId).where('deleted_at', 'is', null);
  if (f.kind !== undefined) list = list.where('kind', '=', f.kind);
  if (f.q !== undefined) {
    const part = f.q.replace(/[\\%_]/g, (c) => `\\${c}`);
    list = list.where(sql<boolean>`lower(name) LIKE '%' || lower(${part}) || '%'`);
  }
  const rows = await list
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toPartner);
}
export async function createPartner(db: Db, org: { id: string; country: string }, b: Body, actor: string) {
  const v = checkPartner(b, org.country);
  return db.tx(async (q) => {
    const id = newId('ptn');
    const row = {
      organization_id: org.id,
      id,
      kind: v.kind,
      name: v.name,
      contact_name: v.contact_name ?? '',
      email: v.email ?? null,
      phone: v.phone ?? null,
      website: v.website ?? null,
      notes: v.notes ?? '',
    };
    await kx(q)
      .insertInto('partners')
      .values(row as Insertable<DB['partners']>)
      .execute();
    await audit(q, org.id, actor, 'create', 'partner', id);
    return partnerRow(q, org.id, id);
  });
}
export async function updatePartner(db: Db, org: { id: string; country: string }, id: string, b: Body, actor: string) {
  const v = checkPartner(b, org.country);
  return db.tx(async (q) => {
    await partnerRow(q, org.id, id, true);
    const set = pick<DB['partners']>(v, PARTNER_COLUMNS);
    if (Object.keys(set).length) {
      await kx(q)
        .updateTable('partners')
        .set({ ...set, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', org.id)
        .where('id', '=', id)
        .execute();
      await audit(q, org.id, actor, 'update', 'partner', id, Object.keys(set));
    }
    return partnerRow(q, org.id, id);
  });
}
export async function deletePartner(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, id, true);
    await kx(q)
      .updateTable('partners')
      .set({ deleted_at: sql<Date>`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await audit(q, orgId, actor, 'delete', 'partner', id);
  });
}

// Locations.
async function locationRow(q: Queryable, orgId: string, partnerId: string, id: string) {
  const r: LocationT | undefined = await kx(q)
    .selectFrom('partner_locations')
    .select(LCOLS)
    .where('organization_id', '=', orgId)
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!r) throw notFound('location');
  return r;
}
export async function listLocations(q: Queryable, orgId: string, partnerId: string, limit: number, offset: number) {
  await partnerRow(q, orgId, partnerId);
  const rows: LocationT[] = await kx(q)
    .selectFrom('partner_locations')
    .select(LCOLS)
    .where('organization_id', '=', orgId)
    .where('partner_id', '=', partnerId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows;
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
    const row = {
      organization_id: org.id,
      id,
      partner_id: partnerId,
      name: v.name ?? '',
      line1: v.line1,
      line2: v.line2 ?? null,
      city: v.city,
      state: v.state ?? null,
      postal_code: v.postal_code ?? null,
      country: v.country,
      phone: v.phone ?? null,
      hours: v.hours ?? '',
    };
    await kx(q)
      .insertInto('partner_locations')
      .values(row as Insertable<DB['partner_locations']>)
      .execute();
    await audit(q, org.id, actor, 'create', 'partner_location', id, { partner_id: partnerId });
    return locationRow(q, org.id, partnerId, id);
  });
}
export async function updateLocation(db: Db, org: { id: string; country: string }, partnerId: string, id: string, b: Body, actor: string) {
  const v = checkLocation(b, org.country);
  return db.tx(async (q) => {
    await partnerRow(q, org.id, partnerId, true);
    await locationRow(q, org.id, partnerId, id);
    const set = pick<DB['partner_locations']>(v, LOCATION_COLUMNS);
    if (Object.keys(set).length) {
      await kx(q)
        .updateTable('partner_locations')
        .set({ ...set, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', org.id)
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .execute();
      await audit(q, org.id, actor, 'update', 'partner_location', id, Object.keys(set));
    }
    return locationRow(q, org.id, partnerId, id);
  });
}
export async function deleteLocation(db: Db, orgId: string, partnerId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const r = await kx(q)
      .deleteFrom('partner_locations')
      .where('organization_id', '=', orgId)
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!r.length) throw notFound('location');
    await audit(q, orgId, actor, 'delete', 'partner_location', id, { partner_id: partnerId });
  });
}

// Affiliations.
async function affiliationRow(q: Queryable, orgId: string, partnerId: string, id: string) {
  const r: AffiliationT | undefined = await kx(q)
    .selectFrom('partner_affiliations')
    .select(ACOLS)
    .where('organization_id', '=', orgId)
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!r) throw notFound('affiliation');
  return r;
}
export async function listAffiliations(q: Queryable, orgId: string, partnerId: string, limit: number, offset: number) {
  await partnerRow(q, orgId, partnerId);
  const rows: AffiliationT[] = await kx(q)
    .selectFrom('partner_affiliations')
    .select(ACOLS)
    .where('organization_id', '=', orgId)
    .where('partner_id', '=', partnerId)
    .orderBy(sql`valid_until DESC NULLS FIRST`)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows;
}
export async function addAffiliation(db: Db, orgId: string, partnerId: string, b: Body, actor: string) {
  checkRange(b.valid_from, b.valid_until);
  return db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    if (!(await personExists(q, orgId, String(b.person_id)))) throw invalid({ person_id: ['names no live person of this organization'] });
    const id = newId('paf');
    const row = {
      organization_id: orgId,
      id,
      partner_id: partnerId,
      person_id: b.person_id,
      role: b.role,
      valid_from: b.valid_from ?? null,
      valid_until: b.valid_until ?? null,
    };
    await kx(q)
      .insertInto('partner_affiliations')
      .values(row as Insertable<DB['partner_affiliations']>)
      .execute();
    await audit(q, orgId, actor, 'create', 'partner_affiliation', id, { partner_id: partnerId, person_id: b.person_id });
    return affiliationRow(q, orgId, partnerId, id);
  });
}
export async function updateAffiliation(db: Db, orgId: string, partnerId: string, id: string, b: Body, actor: string) {
  return db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const cur = await affiliationRow(q, orgId, partnerId, id);
    checkRange(b.valid_from === undefined ? cur.valid_from : b.valid_from, b.valid_until === undefined ? cur.valid_until : b.valid_until);
    const set = pick<DB['partner_affiliations']>(defined(b), AFFILIATION_COLUMNS);
    if (Object.keys(set).length) {
      await kx(q)
        .updateTable('partner_affiliations')
        .set({ ...set, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', orgId)
        .where('partner_id', '=', partnerId)
        .where('id', '=', id)
        .execute();
      await audit(q, orgId, actor, 'update', 'partner_affiliation', id, Object.keys(set));
    }
    return affiliationRow(q, orgId, partnerId, id);
  });
}
export async function deleteAffiliation(db: Db, orgId: string, partnerId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await partnerRow(q, orgId, partnerId, true);
    const r = await kx(q)
      .deleteFrom('partner_affiliations')
      .where('organization_id', '=', orgId)
      .where('partner_id', '=', partnerId)
      .where('id', '=', id)
      .returning('id')
      .execute();
    if (!r.length) throw notFound('affiliation');
    await audit(q, orgId, actor, 'delete', 'partner_affiliation', id, { partner_id: partnerId });
  });
}
