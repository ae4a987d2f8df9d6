/** What other modules may use of the registry module. */
import { Type } from '../../platform/schema.ts';
import type { Queryable } from '../../platform/db/db.ts';
import { matches } from './flags.service.ts';

/** One live registry flag matching a person, as an application or a converted form submission shows it. */
export const RegistryWarning = Type.Object({
  flag_id: Type.String(),
  category: Type.String(),
  raised_on: Type.String(),
  raised_by_you: Type.Boolean(),
  raised_by: Type.String({ description: 'the raising organization' }),
  matched_on: Type.Array(Type.String(), { description: 'what matched: email, phone, name_postal_code' }),
});

/**
 * The live registry flags (raised by any organization, this one included) matching one of this organization's
 * people, as GET /api/registry/people/{id}/check counts them: category, when raised, who raised it and on what the
 * person matched. Empty for a person not on file. `secret` is the deployment's registry secret (config.registrySecret).
 */
export async function registryPersonWarnings(q: Queryable, orgId: string, personId: string, secret: string) {
  const found = await matches(q, orgId, personId, secret, true);
  return found.map((f) => ({
    flag_id: f.flag_id,
    category: f.category,
    raised_on: f.raised_on,
    raised_by_you: f.raised_by_you,
    raised_by: f.raised_by.name,
    matched_on: f.matched_on,
  }));
}
