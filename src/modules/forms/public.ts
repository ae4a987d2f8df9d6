/**
 * What other modules may use of the forms module (it owns `forms` and `form_submissions`).
 *
 * Adoption applications: `hooks.on(adoptionSubmissionHook, fn)` (in Module.register) registers a function run, in
 * the same transaction, when a submission of an adoption application form becomes a person (POST /api/forms/submissions/{id}/convert); it
 * receives the person id and the answers, and returns the id of the application it made (kept on the submission
 * as `application_id`) or null.
 */
import type { Queryable } from '../../platform/db/db.ts';
import * as repo from './repository.ts';
import { kx } from '../../platform/db/kysely.ts';

export { adoptionSubmissionHook, type AdoptionHook, type AdoptionSubmission } from './hooks.ts';

/** True when the id names a submission of the organization. */
export async function submissionExists(q: Queryable, orgId: string, id: string): Promise<boolean> {
  return (await repo.getSubmission(q, orgId, id)) !== null;
}

/**
 * For filling a message template about a submission: null when no such submission; else the person it became
 * (null while it has not become one).
 */
export async function submissionPerson(q: Queryable, orgId: string, id: string): Promise<{ person_id: string | null } | null> {
  const s = await repo.getSubmission(q, orgId, id);
  return s ? { person_id: s.person_id } : null;
}

const LINK_PURPOSES = { adoption_application: 'adopt', foster_application: 'foster', volunteer_application: 'volunteer' } as const;

/** Addresses (`/forms/{slug}`) of the organization's published adoption, foster and volunteer forms: the oldest of each purpose. */
export async function publishedFormLinks(q: Queryable, orgId: string): Promise<{ adopt?: string; foster?: string; volunteer?: string }> {
  const rows = await kx(q)
    .selectFrom('forms')
    .distinctOn('purpose')
    .select(['purpose', 'slug'])
    .where('organization_id', '=', orgId)
    .where('status', '=', 'published')
    .where('purpose', 'in', Object.keys(LINK_PURPOSES))
    .orderBy('purpose')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return Object.fromEntries(
    rows.map((r) => [LINK_PURPOSES[r.purpose as keyof typeof LINK_PURPOSES], `/forms/${encodeURIComponent(r.slug)}`]),
  );
}
