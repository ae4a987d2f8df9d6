import type { Queryable } from '../../platform/db/db.ts';
import { hookPoint } from '../../platform/hooks.ts';

/** What an adoption hook is told when an adoption application form's submission becomes a person. */
export interface AdoptionSubmission {
  orgId: string;
  submissionId: string;
  formId: string;
  personId: string;
  /** The animals the submission applies for: chosen on the public page (`?animal=`), else none. */
  animalIds: string[];
  /** The answers as stored (checked against the form's fields). */
  answers: Record<string, unknown>;
  /** The member who converted it, or null when the public submission itself became the application. */
  actor: string | null;
  /** When the submission was sent (the application's submitted_at). */
  sentAt: Date;
}
/**
 * Runs inside the conversion's transaction; returns the id of the adoption application it made (stored on the
 * submission as application_id), or null when it made none. A throw rolls the whole conversion back.
 */
export type AdoptionHook = (q: Queryable, s: AdoptionSubmission) => Promise<string | null>;
/** The hook point: the adoption applications area registers on it in its Module.register. */
export const adoptionSubmissionHook = hookPoint<AdoptionHook>('forms.adoption-submission');
