import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { publicPhotoPath, publicPhotos, type PublicPhoto } from '../media/public.ts';
import { publicWishList } from '../fundraising/public.ts';
import { sizeOf, type Size } from '../animals/public.ts';
import * as repo from './repository.ts';
import { sources, type Fee, type FormLinks } from './sources.ts';
import { activeFeeSchedule, adoptionFeeFrom, type FeeSchedule } from '../adoptions/public.ts';
import { onPublicChange } from '../../platform/cache-bus.ts';
import { moneyText } from '../../platform/money.ts';
import { en } from './strings.en.ts';

export const PAGE_SIZE = 24;
/** Browsers revalidate every time (cheap: 304); a CDN may keep a copy 30 s (and serve it 30 s more while it refetches). */
import { PUBLIC_CACHE_CONTROL, TTL_MS } from '../../platform/public-cache.ts';
export const CACHE_CONTROL = PUBLIC_CACHE_CONTROL;

/** A URL part from a public name: lower case ASCII words joined by hyphens ("Mr. Biscuit" → "mr-biscuit"). */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'animal';
}
export const animalPath = (id: string, name: string) => `/animals/${id}/${slugify(name)}`;

/** Age in days from a date of birth (YYYY-MM-DD), or null. */
export function ageDays(dob: string | null, today = new Date()): number | null {
  if (!dob) return null;
  const ms = today.getTime() - Date.parse(`${dob}T00:00:00Z`);
  return ms < 0 ? 0 : Math.floor(ms / 86_400_000);
}
export function ageGroup(days: number | null): repo.AgeGroup | null {
  if (days === null) return null;
  return days < 182 ? 'baby' : days < 730 ? 'young' : days < 2920 ? 'adult' : 'senior';
}
export const ageText = (dob: string | null) => {
  const d = ageDays(dob);
  return d === null ? en.animal.unknownAge : en.age(d);
};

/** A photo's size when scaled within a square of `box` pixels (the media module's small and medium sizes). */
export function fit(p: { width: number; height: number }, box: number): { width: number; height: number } {
  const s = Math.min(1, box / Math.max(p.width, p.height));
  return { width: Math.max(1, Math.round(p.width * s)), height: Math.max(1, Math.round(p.height * s)) };
}

export const newestOf = (...ds: (Date | string | null | undefined)[]): Date | null => {
  let best: Date | null = null;
  for (const d of ds) {
    if (!d) continue;
    const v = d instanceof Date ? d : new Date(d);
    if (!best || v > best) best = v;
  }
  return best;
};

/**
 * Conditional GET: a page's Last-Modified is the newest change among the rows it is made from. The ETag (a hash of the
 * answer) and the 304s are the response cache's (src/platform/public-cache.ts), which answers a match from the kept
 * entry before the route runs. Always false (kept so a route reads as "answer unless not modified").
 */
export function notModified(
  _req: FastifyRequest,
  reply: FastifyReply,
  _data: unknown,
  lastModified: Date | null,
  _version: string,
): boolean {
  const lm = lastModified ? new Date(Math.floor(lastModified.getTime() / 1000) * 1000) : null;
  if (lm) void reply.header('Last-Modified', lm.toUTCString());
  return false;
}

export interface Site {
  org: Organization;
  settings: repo.SiteSettingsRow;
}
export async function site(q: Queryable, org: Organization): Promise<Site> {
  return { org, settings: (await siteFacts(q, org)).settings };
}

/** What every page of an organization's site reads the same: its settings, its form links and its fee schedule. */
export interface SiteFacts {
  settings: repo.SiteSettingsRow;
  forms: FormLinks;
  feeSchedule: FeeSchedule | null;
}
const facts = new Map<string, { at: number; value: Promise<SiteFacts> }>();
// Forgotten with the organization's public pages (the same triggers and write hook, src/platform/public-cache.ts).
onPublicChange((orgId) => (orgId === null ? facts.clear() : facts.delete(orgId)));
export function siteFacts(q: Queryable, org: Organization): Promise<SiteFacts> {
  const hit = facts.get(org.id);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = Promise.all([
    repo.siteSettings(q, org.id),
    sources.forms ? sources.forms(q, org.id) : Promise.resolve({}),
    activeFeeSchedule(q, org.id),
  ]).then(([settings, forms, feeSchedule]) => ({ settings, forms, feeSchedule }));
  const entry = { at: Date.now(), value };
  facts.set(org.id, entry);
  value.catch(() => facts.get(org.id) === entry && facts.delete(org.id));
  return value;
}

export interface Card {
  id: string;
  name: string;
  href: string;
  species: string;
  breed: string | null;
  sex: string;
  age: string;
  size: Size | null;
  photo: { src: string; width: number; height: number } | null;
}
function card(a: repo.ListedAnimal, photos: Map<string, PublicPhoto>): Card {
  const p = a.photo_id ? photos.get(a.id) : undefined;
  return {
    id: a.id,
    name: a.public_name,
    href: animalPath(a.id, a.public_name),
    species: a.species,
    breed: a.breed,
    sex: a.sex,
    age: ageText(a.date_of_birth),
    size: sizeOf(a.weight),
    photo: p ? { src: publicPhotoPath(a.id, p.id, 'small'), ...fit(p, 320) } : null,
  };
}

/** One page of adoptable animals as cards, with the total and what changed last. */
export async function listPage(q: Queryable, orgId: string, f: repo.ListFilter, page: number, size = PAGE_SIZE) {
  const [rows, total] = await Promise.all([repo.listAdoptable(q, orgId, f, size, (page - 1) * size), repo.adoptableTotal(q, orgId, f)]);
  const withPhoto = rows.filter((r) => r.photo_id).map((r) => r.id);
  const photos = new Map<string, PublicPhoto>();
  for (const p of await publicPhotos(q, orgId, withPhoto, 1)) photos.set(p.animal_id, p);
  return {
    cards: rows.map((r) => card(r, photos)),
    rows,
    total,
    pages: Math.max(1, Math.ceil(total / size)),
    lastModified: newestOf(...rows.map((r) => r.updated_at), ...[...photos.values()].map((p) => p.updated_at)),
  };
}

export interface AnimalPage {
  animal: repo.PublicAnimal;
  name: string;
  href: string;
  age: string;
  ageGroup: string | null;
  /** The size band from the weight (null: no weight on file). */
  size: Size | null;
  photos: { src: string; large: string; width: number; height: number; caption: string | null }[];
  description: string[];
  bonded: { name: string; href: string }[];
  fee: Fee | null;
  goodWith: string[];
  notGoodWith: string[];
  applyUrl: string | null;
  lastModified: Date | null;
}

/** Everything an animal's page shows, or null when the animal is not adoptable now (404 at once): one statement for the
 * animal (repo.animalPageRow) and the organization's site facts, kept until its public pages change. */
export async function animalPage(q: Queryable, org: Organization, id: string): Promise<AnimalPage | null> {
  const [a, facts] = await Promise.all([repo.animalPageRow(q, org.id, id), siteFacts(q, org)]);
  if (!a) return null;
  const photos = a.photos;
  const notes = a.notes;
  const fee = adoptionFeeFrom(facts.feeSchedule, org.currency, {
    species: a.species,
    date_of_birth: a.date_of_birth,
    age_at_intake: a.age_at_intake ? { age_weeks: a.age_at_intake.age_weeks, intake_at: new Date(a.age_at_intake.intake_at) } : null,
  });
  const forms = facts.forms;
  const label = (k: string) => en.goodWith[k] ?? k;
  const days = ageDays(a.date_of_birth);
  return {
    animal: a,
    name: a.public_name,
    href: animalPath(a.id, a.public_name),
    age: ageText(a.date_of_birth),
    ageGroup: ageGroup(days),
    size: sizeOf(a.weight),
    photos: photos.map((p) => ({
      src: publicPhotoPath(id, p.id, 'medium'),
      large: publicPhotoPath(id, p.id, 'medium'),
      ...fit(p, 1024),
      caption: p.caption,
    })),
    // The animal's public description first, then its notes marked shareable, paragraph by paragraph.
    description: [a.public_description, ...notes.map((n) => n.body)]
      .flatMap((text) => (text ?? '').split(/\n\s*\n/).map((s) => s.trim()))
      .filter(Boolean),
    bonded: a.bonded.map((b) => ({ name: b.public_name, href: animalPath(b.id, b.public_name) })),
    fee,
    goodWith: (['dogs', 'cats', 'children'] as const).filter((k) => a[`good_with_${k}`] === 'yes').map(label),
    notGoodWith: (['dogs', 'cats', 'children'] as const).filter((k) => a[`good_with_${k}`] === 'no').map(label),
    // The adoption form opens with this animal chosen: the applicant never types its name.
    applyUrl: forms.adopt ? `${forms.adopt}?animal=${encodeURIComponent(id)}` : null,
    lastModified: newestOf(a.updated_at, a.care_changed_at, ...photos.map((p) => p.updated_at), ...notes.map((n) => n.updated_at)),
  };
}

/** The home page's parts: a few adoptable animals, the wish list, events and form links where provided. */
export async function homePage(q: Queryable, orgId: string) {
  const featured = await listPage(q, orgId, { goodWith: [], sort: 'newest' }, 1, 6);
  const wishes = await publicWishList(q, orgId, 6);
  const events = sources.events ? await sources.events(q, orgId, 4) : [];
  const forms = sources.forms ? await sources.forms(q, orgId) : {};
  return { featured, wishes, events, forms };
}

/** Money for display: integer minor units in the currency's notation. */
export const money = (fee: Fee): string => moneyText(fee.amount_minor, fee.currency);
