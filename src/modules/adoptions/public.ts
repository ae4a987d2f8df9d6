/**
 * What other modules may use of the adoptions module (it owns application stages, applications, fee schedules,
 * adoptions, contract templates, signed contracts, the donations linked to adoptions and cage card templates).
 */
import type { Db, Queryable } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { Caller } from './adoptions.service.ts';
import { resendContract } from './contracts.service.ts';
import { organizationCurrency } from '../settings/public.ts';
import { quote } from './fees.ts';

export { applicationParties } from './applications.service.ts';

/**
 * The adoption fee the organization's active fee schedule sets for an animal today (promotions applied), or null
 * when no schedule or rule applies: for the public website, which shows no fee rather than a made-up one.
 */
export async function currentAdoptionFee(
  q: Queryable,
  orgId: string,
  animalId: string,
): Promise<{ amount_minor: number; currency: string } | null> {
  const currency = await organizationCurrency(q, orgId);
  if (!currency) return null;
  const today = new Date().toISOString().slice(0, 10);
  const fee = await quote(q, { id: orgId, currency }, animalId, today, false).catch(() => null);
  return fee?.rule ? { amount_minor: fee.amount_minor, currency: fee.currency } : null;
}

/** A person's own adoption applications, newest first, with the stage name the organization gave it. */
export async function applicationsOfPerson(q: Queryable, orgId: string, personId: string) {
  return q.query<{ id: string; stage_name: string; stage_kind: string; decision: string | null; submitted_at: Date }>(
    `SELECT a.id, s.name AS stage_name, s.kind AS stage_kind, a.decision, a.submitted_at
       FROM adoption_applications a JOIN adoption_stages s ON s.organization_id = a.organization_id AND s.id = a.stage_id
      WHERE a.organization_id = $1 AND a.person_id = $2 ORDER BY a.submitted_at DESC, a.id LIMIT 50`,
    [orgId, personId],
  );
}
/** A person's contracts not signed yet. */
export async function contractsToSign(q: Queryable, orgId: string, personId: string) {
  return q.query<{ id: string; title: string }>(
    `SELECT id, title FROM signed_contracts WHERE organization_id = $1 AND person_id = $2 AND signed_at IS NULL
      ORDER BY created_at DESC, id LIMIT 20`,
    [orgId, personId],
  );
}
/** The animals adopted by (or on a trial with) a person, oldest first. */
export async function animalsAdoptedBy(q: Queryable, orgId: string, personId: string): Promise<string[]> {
  const rows = await q.query<{ animal_id: string }>(
    `SELECT animal_id FROM adoptions WHERE organization_id = $1 AND person_id = $2 AND status IN ('adopted', 'trial')
      ORDER BY started_at, id LIMIT 50`,
    [orgId, personId],
  );
  return rows.map((r) => r.animal_id);
}
/**
 * A fresh single-use signing link for the person's own unsigned contract (the earlier link stops working), not
 * emailed: the person is sent to it at once. Another person's contract is not found.
 */
export async function freshSigningLink(db: Db, c: Omit<Caller, 'isAdmin'>, personId: string, contractId: string): Promise<string> {
  const own = await contractsToSign(db, c.org.id, personId);
  if (!own.some((x) => x.id === contractId)) throw notFound('contract');
  const made = await resendContract(db, { ...c, isAdmin: false }, contractId, { send_email: false });
  return made.signing_url;
}
