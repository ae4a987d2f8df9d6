import { createHmac } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { conflict, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { normalizePhone } from '../../platform/validators.ts';
import { getPerson } from '../people/public.ts';
import { organizationCountry, organizationProfile } from '../settings/public.ts';
import * as repo from './flags.repository.ts';
import type {
  DisputeBody,
  DisputeResolveBody,
  FlagCreateBody,
  FlagMatch,
  FlagPatchBody,
  MarkBody,
  OwnFlag,
  ReviewBody,
} from './schemas.ts';

/** How long a flag lasts unless its organization says otherwise. */
export const DEFAULT_FLAG_YEARS = 3;

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A person's matching data as keyed hashes (HMAC-SHA-256 with the registry secret): the email (trimmed,
 * lower case), the phone in E.164 (the organization's country assumed), and name with postal code
 * (accents, case and spacing folded; postal code without spaces or hyphens). Nothing else is used.
 */
export function matchKeys(
  secret: string,
  p: { first_name: string; last_name: string; email: string; phone: string | null; postal_code: string | null },
  country: string,
): { kind: string; hash: string }[] {
  const h = (kind: string, v: string) => ({
    kind,
    hash: createHmac('sha256', `${secret}:registry-flag-match`).update(`${kind}:${v}`).digest('hex'),
  });
  const out: { kind: string; hash: string }[] = [];
  const email = p.email.trim().toLowerCase();
  if (email) out.push(h('email', email));
  const phone = p.phone ? normalizePhone(p.phone, country) : null;
  if (phone) out.push(h('phone', phone));
  const postal = (p.postal_code ?? '').toUpperCase().replace(/[\s-]/g, '');
  const name = fold(`${p.first_name} ${p.last_name}`);
  if (postal && name) out.push(h('name_postal_code', `${name}|${postal}`));
  return out;
}

async function personKeys(q: Queryable, orgId: string, personId: string, secret: string, field = 'person_id') {
  const p = await getPerson(q, orgId, personId);
  if (!p) throw field === 'person_id' ? invalid({ person_id: ['is not a person of this organization'] }) : notFound('person');
  const country = (await organizationCountry(q, orgId)) ?? 'US';
  return matchKeys(secret, { ...p, postal_code: p.address?.postalCode ?? null }, country);
}

const today = () => new Date().toISOString().slice(0, 10);
function inYears(n: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + n);
  return d.toISOString().slice(0, 10);
}
function futureDate(v: string): string {
  if (v <= today()) throw invalid({ expires_on: ['must be after today'] });
  return v;
}

async function contact(q: Queryable, orgId: string) {
  const p = await organizationProfile(q, orgId);
  return { name: p?.name ?? '', email: p?.email ?? null, phone: p?.phone ?? null, website: p?.website ?? null };
}

type Review = Static<typeof OwnFlag>['reviews'][number];
async function reviewOut(q: Queryable, r: repo.ReviewRow): Promise<Review> {
  return {
    id: r.id,
    verdict: r.verdict as Review['verdict'],
    note: r.note,
    created_at: r.created_at,
    organization: await contact(q, r.organization_id),
  };
}

/** The raising organization's full view of its own flag; 404 for any other organization. */
export async function ownFlagView(q: Queryable, orgId: string, id: string): Promise<Static<typeof OwnFlag>> {
  const f = await repo.ownFlag(q, orgId, id);
  if (!f) throw notFound('flag');
  return viewOf(q, orgId, f);
}
async function viewOf(q: Queryable, orgId: string, f: repo.FlagRow): Promise<Static<typeof OwnFlag>> {
  const reviews = await repo.reviewsOfFlag(q, orgId, f.id);
  return {
    id: f.id,
    person_id: f.person_id,
    category: f.category as Static<typeof OwnFlag>['category'],
    evidence: f.evidence,
    status: f.status as Static<typeof OwnFlag>['status'],
    expired: f.expired,
    raised_at: f.raised_at,
    expires_on: f.expires_on,
    matched_by: (await repo.keyKinds(q, orgId, f.id)) as Static<typeof OwnFlag>['matched_by'],
    reviews: await Promise.all(reviews.map((r) => reviewOut(q, r))),
    disputes: await repo.disputes(q, orgId, f.id),
    marks: await repo.ownMarks(q, orgId, orgId, f.id),
  };
}

export async function listOwnFlags(q: Queryable, orgId: string, status: string | undefined, limit: number, offset: number) {
  const rows = await repo.listOwnFlags(q, orgId, status, limit, offset);
  const results = [];
  for (const f of rows.slice(0, limit)) results.push(await viewOf(q, orgId, f));
  return { results, limit, offset, has_more: rows.length > limit };
}

export async function raiseFlag(db: Db, orgId: string, body: Static<typeof FlagCreateBody>, actor: string, secret: string) {
  const keys = await personKeys(db, orgId, body.person_id, secret);
  const expires = body.expires_on === undefined ? inYears(DEFAULT_FLAG_YEARS) : futureDate(body.expires_on);
  return db.tx(async (q) => {
    const id = newId('rfl');
    await repo.insertFlag(q, orgId, {
      id,
      person_id: body.person_id,
      category: body.category,
      evidence: body.evidence ?? null,
      expires_on: expires,
    });
    await repo.insertKeys(q, orgId, id, keys);
    await repo.appendHistory(q, orgId, id, actor, 'raised', {
      category: body.category,
      expires_on: expires,
      matched_by: keys.map((k) => k.kind),
    });
    await audit(q, orgId, actor, 'create', 'registry_flag', id);
    return ownFlagView(q, orgId, id);
  });
}

/** Ends a flag everywhere at once: its matching keys go, so no organization matches it any more. */
async function endFlag(q: Queryable, orgId: string, id: string, status: 'withdrawn' | 'removed') {
  await repo.updateFlag(q, orgId, id, { status });
  await repo.deleteKeys(q, orgId, id);
}

export async function patchFlag(db: Db, orgId: string, id: string, body: Static<typeof FlagPatchBody>, actor: string) {
  return db.tx(async (q) => {
    const f = await repo.ownFlag(q, orgId, id, true);
    if (!f) throw notFound('flag');
    if (f.status !== 'active') throw conflict(`This flag is ${f.status}; an ended flag does not change.`);
    const expires = body.expires_on === undefined ? undefined : futureDate(body.expires_on);
    await repo.updateFlag(q, orgId, id, { expires_on: expires, evidence: body.evidence });
    const changed = Object.keys(body).filter((k) => k !== 'status');
    if (changed.length) await repo.appendHistory(q, orgId, id, actor, 'changed', { fields: changed, expires_on: expires ?? f.expires_on });
    if (body.status === 'withdrawn') {
      await endFlag(q, orgId, id, 'withdrawn');
      await repo.appendHistory(q, orgId, id, actor, 'withdrawn');
    }
    await audit(q, orgId, actor, 'update', 'registry_flag', id, Object.keys(body));
    return ownFlagView(q, orgId, id);
  });
}

/** The live flags (any organization's) matching one of this organization's people, as another organization may see them. */
export async function matches(
  q: Queryable,
  orgId: string,
  personId: string,
  secret: string,
  unknownIsEmpty = false,
): Promise<Static<typeof FlagMatch>[]> {
  if (unknownIsEmpty && !(await getPerson(q, orgId, personId))) return [];
  const keys = await personKeys(q, orgId, personId, secret, 'path');
  const hashes = keys.map((k) => k.hash);
  const rows = await repo.matchingFlags(q, hashes);
  const out: Static<typeof FlagMatch>[] = [];
  for (const r of rows) {
    const own = await repo.ownReview(q, orgId, r.organization_id, r.flag_id);
    out.push({
      flag_id: r.flag_id,
      category: r.category as Static<typeof FlagMatch>['category'],
      raised_on: r.raised_on,
      expires_on: r.expires_on,
      raised_by_you: r.organization_id === orgId,
      raised_by: await contact(q, r.organization_id),
      matched_on: r.kinds as Static<typeof FlagMatch>['matched_on'],
      reviews: await repo.reviewCounts(q, r.organization_id, r.flag_id),
      your_review: own ? await reviewOut(q, own) : null,
      your_marks: await repo.ownMarks(q, orgId, r.organization_id, r.flag_id),
    });
  }
  return out;
}

/**
 * The flag an organization may act on: its own (any status), or another organization's live flag that
 * matches the named person of this organization. Anything else is 404, the same whether the flag
 * exists elsewhere or not.
 */
async function reachableFlag(q: Queryable, orgId: string, flagId: string, personId: string | undefined, secret: string) {
  const own = await repo.ownFlag(q, orgId, flagId);
  if (own) return { flagOrgId: orgId, flag: own };
  if (!personId) throw notFound('flag');
  const p = await getPerson(q, orgId, personId);
  if (!p) throw notFound('flag');
  const hit = (
    await repo.matchingFlags(
      q,
      (await personKeys(q, orgId, personId, secret, 'path')).map((k) => k.hash),
    )
  ).find((r) => r.flag_id === flagId);
  if (!hit) throw notFound('flag');
  return { flagOrgId: hit.organization_id, flag: null };
}

/**
 * A flag's reviews as a page. The raising organization reads every review (with each reviewer's public contact);
 * another organization reads only its own review of a flag it reviewed, or an empty list for a live flag matching
 * `personId`, one of its people. Anything else is 404, the same whether the flag exists elsewhere or not.
 */
export async function listReviews(
  q: Queryable,
  orgId: string,
  flagId: string,
  personId: string | undefined,
  limit: number,
  offset: number,
  secret: string,
) {
  const page = <T>(rows: T[]) => ({ results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit });
  if (await repo.ownFlag(q, orgId, flagId)) {
    const rows = await repo.reviewsPage(q, orgId, flagId, limit + 1, offset);
    return page(await Promise.all(rows.map((r) => reviewOut(q, r))));
  }
  const mine = await repo.ownReviewOfFlagId(q, orgId, flagId);
  if (mine) return page(offset === 0 ? [await reviewOut(q, mine)] : []);
  await reachableFlag(q, orgId, flagId, personId, secret);
  return page([]);
}

/**
 * This organization's marks on a flag as a page: on its own flag, on a flag it has marked, or on a live flag matching
 * `personId` (then possibly none). Anything else is 404. No organization ever reads another's marks.
 */
export async function listMarks(
  q: Queryable,
  orgId: string,
  flagId: string,
  personId: string | undefined,
  limit: number,
  offset: number,
  secret: string,
) {
  if (!(await repo.hasOwnMarks(q, orgId, flagId))) await reachableFlag(q, orgId, flagId, personId, secret);
  const rows = await repo.ownMarksPage(q, orgId, flagId, limit + 1, offset);
  return { results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit };
}

export async function addReview(db: Db, orgId: string, flagId: string, body: Static<typeof ReviewBody>, actor: string, secret: string) {
  return db.tx(async (q) => {
    const { flagOrgId } = await reachableFlag(q, orgId, flagId, body.person_id, secret);
    if (flagOrgId === orgId) throw invalid({ flag: ['an organization does not review its own flag'] });
    const id = newId('rrv');
    if (!(await repo.insertReview(q, orgId, { id, flag_org_id: flagOrgId, flag_id: flagId, verdict: body.verdict, note: body.note }))) {
      throw conflict('This organization has already reviewed this flag.');
    }
    await repo.appendHistory(q, flagOrgId, flagId, null, 'reviewed', { verdict: body.verdict });
    await audit(q, orgId, actor, 'create', 'registry_review', id);
    const r = await repo.ownReview(q, orgId, flagOrgId, flagId);
    return reviewOut(q, r as repo.ReviewRow);
  });
}

export async function addMark(db: Db, orgId: string, flagId: string, body: Static<typeof MarkBody>, actor: string, secret: string) {
  return db.tx(async (q) => {
    const { flagOrgId } = await reachableFlag(q, orgId, flagId, body.person_id, secret);
    const label = body.label.trim();
    const m = await repo.insertMark(q, orgId, { id: newId('rmk'), flag_org_id: flagOrgId, flag_id: flagId, label });
    if (!m) throw conflict('This organization already has this mark on this flag.');
    await audit(q, orgId, actor, 'create', 'registry_mark', m.id, { label });
    return m;
  });
}

export async function removeMark(db: Db, orgId: string, flagId: string, markId: string, actor: string) {
  await db.tx(async (q) => {
    if (!(await repo.deleteMark(q, orgId, flagId, markId))) throw notFound('mark');
    await audit(q, orgId, actor, 'delete', 'registry_mark', markId);
  });
}

export async function openDispute(db: Db, orgId: string, flagId: string, body: Static<typeof DisputeBody>, actor: string) {
  return db.tx(async (q) => {
    const f = await repo.ownFlag(q, orgId, flagId, true);
    if (!f) throw notFound('flag');
    if (f.status !== 'active') throw conflict(`This flag is ${f.status}; there is nothing to dispute.`);
    const d = await repo.insertDispute(q, orgId, { id: newId('rdp'), flag_id: flagId, note: body.note });
    await repo.appendHistory(q, orgId, flagId, actor, 'dispute_opened', { dispute_id: d.id });
    await audit(q, orgId, actor, 'create', 'registry_dispute', d.id);
    return d;
  });
}

export async function resolveDispute(
  db: Db,
  orgId: string,
  flagId: string,
  disputeId: string,
  body: Static<typeof DisputeResolveBody>,
  actor: string,
) {
  return db.tx(async (q) => {
    const f = await repo.ownFlag(q, orgId, flagId, true);
    if (!f) throw notFound('flag');
    const d = await repo.lockDispute(q, orgId, flagId, disputeId);
    if (!d) throw notFound('dispute');
    if (d.status !== 'open') throw conflict(`This dispute is already ${d.status}.`);
    const out = await repo.resolveDispute(q, orgId, disputeId, body.status, body.resolution_note ?? null);
    await repo.appendHistory(q, orgId, flagId, actor, `dispute_${body.status}`, { dispute_id: disputeId });
    if (body.status === 'upheld' && f.status === 'active') {
      await endFlag(q, orgId, flagId, 'removed');
      await repo.appendHistory(q, orgId, flagId, actor, 'removed', { reason: 'dispute_upheld', dispute_id: disputeId });
    }
    await audit(q, orgId, actor, 'update', 'registry_dispute', disputeId, { status: body.status });
    return out;
  });
}

export async function flagHistory(q: Queryable, orgId: string, flagId: string, limit: number, offset: number) {
  if (!(await repo.ownFlag(q, orgId, flagId))) throw notFound('flag');
  const rows = await repo.history(q, orgId, flagId, limit, offset);
  return { results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit };
}
