import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { SeedData } from '../../platform/context.ts';
import { loadConfig } from '../../config.ts';
import { newId } from '../../platform/ids.ts';
import { getPerson } from '../people/public.ts';
import * as repo from './flags.repository.ts';
import { publishAll } from './chips.service.ts';
import { matchKeys } from './flags.service.ts';

/**
 * Sample registry data: every seeded organization publishes its chipped animals (the sample chips
 * repeat across organizations, so a lookup shows several). An organization raises one flag about its
 * first sample person unless another organization's live flag already matches that person; the sample
 * people are the same in every organization, so the next one seeded sees the first one's flag match.
 */
export async function seedRegistry(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  await publishAll(q, org.id);
  const first = data.people[0];
  const p = first ? await getPerson(q, org.id, first.id) : null;
  if (!p) return;
  const keys = matchKeys(loadConfig().registrySecret, { ...p, postal_code: p.address?.postalCode ?? null }, org.country);
  // Already flagged by an organization seeded before: this one is the organization that sees the match.
  if (
    (
      await repo.matchingFlags(
        q,
        keys.map((k) => k.hash),
      )
    ).length
  )
    return;
  const id = newId('rfl');
  const expires = new Date(Date.now() + 3 * 365 * 86_400_000).toISOString().slice(0, 10);
  await repo.insertFlag(q, org.id, {
    id,
    person_id: p.id,
    category: 'returned_animals_repeatedly',
    evidence: 'Sample: returned three dogs within a year (see the adoption files).',
    expires_on: expires,
  });
  await repo.insertKeys(q, org.id, id, keys);
  await repo.appendHistory(q, org.id, id, 'seed', 'raised', { category: 'returned_animals_repeatedly', expires_on: expires });
}
