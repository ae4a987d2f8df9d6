import { createHmac } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { animalMicrochips, animalExists, chippedAnimalIds, getAnimal, normalizeMicrochip, type HookWork } from '../animals/public.ts';
import { organizationProfile, type OrganizationProfile } from '../settings/public.ts';
import * as repo from './chips.repository.ts';
import { onClient, sql } from '../../platform/db/kysely.ts';
import { OrgCache } from '../../platform/org-cache.ts';
import { chipPrefix } from './prefixes.ts';
import type { LookupAnswer, LookupQuery } from './schemas.ts';

/** The database role the lookup runs as (created by the registry's migration, SELECT on the published columns only). */
export const READER_ROLE = 'ark_registry_reader';

/**
 * The status category published for an animal: never the organization's own status name. In care
 * (and on hold) is `in_care`; a completed status whose name speaks of adoption is `adopted`, of a
 * transfer `transferred`; anything else (returned to owner, deceased, courtesy listing) is `other`.
 */
export function statusCategory(careState: string, statusName: string): repo.StatusCategory {
  if (careState === 'in_care' || careState === 'on_hold') return 'in_care';
  if (careState === 'completed' && /adopt/i.test(statusName)) return 'adopted';
  if (careState === 'completed' && /transfer/i.test(statusName)) return 'transferred';
  return 'other';
}

const sameProfile = (a: OrganizationProfile | null, b: OrganizationProfile) =>
  !!a && a.name === b.name && a.email === b.email && a.phone === b.phone && a.website === b.website;

/**
 * Brings the registry's copies of one animal's chips up to date, inside the caller's transaction:
 * published when the organization publishes, the animal is live, not opted out and has a chip;
 * removed otherwise. A changed organization profile is copied to all its entries at the same time.
 */
/** The animal's columns a published copy shows (with the chips themselves and the day it was last seen). */
const COPIED = new Set(['species', 'status_id', 'microchip_number']);

const publishCache = new OrgCache<boolean>();
/** Whether the organization publishes its chips, cached (the settings route clears it everywhere on change). */
async function publishes(q: Queryable, orgId: string): Promise<boolean> {
  return publishCache.get(orgId, async () => (await repo.settings(q, orgId)).publish_chips);
}

/**
 * The registry's part of every animal write (registered on animalWrittenHook). Nothing when the organization does not
 * publish (turning publishing off removes every copy, so there is nothing to remove either) or for a new animal without
 * a chip (it has no copies). A write that changes what a copy shows (species, status, chip) — or one that does not say
 * what it changed (a delete, a chip added or removed) — rebuilds the animal's copies after its statement, in its
 * transaction (publishAnimalChips). Any other write only moves the copies' "last seen" day to today: one UPDATE of the
 * copies seen before today, a row of the write's own statement (the organization's profile travels with the next write
 * that changes a copy, and whenever the registry settings are saved).
 */
export async function chipWork(q: Queryable, orgId: string, animalId: string, changed?: readonly string[]): Promise<HookWork> {
  const rebuild: HookWork = { parts: [], after: (tx) => publishAnimalChips(tx, orgId, animalId) };
  // Without `changed` the settings are read inside the transaction (publishAnimalChips), not from the cache.
  if (!changed) return rebuild;
  if (!(await publishes(q, orgId))) return { parts: [] };
  if (changed.some((c) => COPIED.has(c))) return rebuild;
  if (changed.includes('created')) return { parts: [] };
  return {
    parts: [
      {
        body: sql`UPDATE registry_chips r SET last_seen = current_date, published_at = now() FROM w
          WHERE r.organization_id = w.organization_id AND r.animal_id = w.id AND r.last_seen < current_date`,
      },
    ],
  };
}

/** Rebuilds the animal's published copies from its chips, status and species (or removes them), in the caller's transaction. */
export async function publishAnimalChips(q: Queryable, orgId: string, animalId: string): Promise<void> {
  const s = await repo.settings(q, orgId);
  const animal = s.publish_chips ? await getAnimal(q, orgId, animalId) : null;
  // Every chip the animal carries (the primary one is Family A's microchipNumber), each published.
  const numbers = animal
    ? [
        ...new Set([
          ...(animal.microchip_number ? [animal.microchip_number] : []),
          ...(await animalMicrochips(q, orgId, animalId)).map((c) => c.number),
        ]),
      ]
    : [];
  if (!animal || numbers.length === 0 || (await repo.isOptedOut(q, orgId, animalId))) {
    await repo.unpublishAnimal(q, orgId, animalId);
    return;
  }
  const profile = await organizationProfile(q, orgId);
  if (!profile) return;
  if (!sameProfile(s.profile, profile)) await repo.copyProfile(q, orgId, profile);
  await repo.publish(q, orgId, animalId, profile, {
    numbers,
    species: animal.species,
    status_category: statusCategory(animal.care_state, animal.status),
  });
}

/** Republishes every chipped animal of the organization (after it opts in again, or a profile refresh). */
export async function publishAll(q: Queryable, orgId: string): Promise<void> {
  for (const id of await chippedAnimalIds(q, orgId)) await publishAnimalChips(q, orgId, id);
}

export async function updateSettings(db: Db, orgId: string, publish: boolean | undefined, actor: string) {
  return db.tx(async (q) => {
    if (publish !== undefined) await repo.setPublishChips(q, orgId, publish);
    const s = await repo.settings(q, orgId);
    const profile = await organizationProfile(q, orgId);
    if (profile) await repo.copyProfile(q, orgId, profile);
    if (s.publish_chips) await publishAll(q, orgId);
    else await repo.unpublishAll(q, orgId);
    await audit(q, orgId, actor, 'update', 'registry_settings', orgId, publish === undefined ? [] : ['publish_chips']);
    return repo.settings(q, orgId);
  });
}

export async function animalPublication(q: Queryable, orgId: string, animalId: string) {
  if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
  return {
    animal_id: animalId,
    publish: !(await repo.isOptedOut(q, orgId, animalId)),
    published_numbers: await repo.publishedNumbers(q, orgId, animalId),
  };
}

export async function setAnimalPublication(db: Db, orgId: string, animalId: string, publish: boolean, actor: string) {
  return db.tx(async (q) => {
    if (!(await animalExists(q, orgId, animalId))) throw notFound('animal');
    if (await repo.setOptOut(q, orgId, animalId, !publish)) {
      await audit(q, orgId, actor, publish ? 'publish_chip' : 'unpublish_chip', 'animal', animalId);
    }
    await publishAnimalChips(q, orgId, animalId);
    return animalPublication(q, orgId, animalId);
  });
}

/** A searcher's address as a keyed hash: the same address is recognisable in the log, never readable. */
export function addressHash(secret: string, address: string | undefined): string {
  return createHmac('sha256', `${secret}:registry-search-address`)
    .update(address ?? 'unknown')
    .digest('hex')
    .slice(0, 32);
}

/** The number as the registry stores it; 422 when nothing of a chip number is left. */
export function lookupNumber(raw: string): string {
  const n = normalizeMicrochip(raw);
  if (n === '' || !/^[0-9A-Z]{1,32}$/.test(n)) {
    throw invalid({ number: ['must be a microchip number: letters and digits (at most 32), separators allowed'] });
  }
  return n;
}

/**
 * The lookup: one read-only transaction as the reader role, on a connection of its own (never a
 * request-wide transaction), then the search is logged (and, with a key, audited) as the app's role.
 */
export async function lookup(
  db: Db,
  raw: string,
  page: LookupQuery,
  who: { address: string | undefined; secret: string; orgId: string | null; actor: string | null },
): Promise<LookupAnswer> {
  const number = lookupNumber(raw);
  const client = await db.pool.connect();
  let rows: repo.LookupRow[];
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL ROLE ${READER_ROLE}`);
    rows = await repo.lookupChips(onClient(client), number, page.limit + 1, page.offset);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  const answered = rows.length > 0;
  await db.tx(async (q) => {
    await repo.logSearch(q, { address_hash: addressHash(who.secret, who.address), number, answered, organization_id: who.orgId });
    if (who.orgId) await audit(q, who.orgId, who.actor, 'search', 'registry_microchip', number, { answered });
  });
  return {
    number,
    ...chipPrefix(number),
    results: rows.slice(0, page.limit).map((r) => ({
      organization: { name: r.org_name, email: r.org_email, phone: r.org_phone, website: r.org_website },
      species: r.species,
      status_category: r.status_category,
      last_seen: r.last_seen,
    })),
    limit: page.limit,
    offset: page.offset,
    has_more: rows.length > page.limit,
  };
}
