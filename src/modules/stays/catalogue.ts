/**
 * The closed lists of the stays area: the Shelter Animals Count intake and outcome categories, condition
 * at intake, hold reasons, and the defaults each organization starts with (subtypes after Animal Shelter
 * Manager's usual entry reasons and movement types, and the category → status mapping).
 */

export const INTAKE_TYPES = ['stray', 'relinquished', 'owner_intended_euthanasia', 'transfer_in', 'other'] as const;
export const OUTCOME_TYPES = [
  'adoption',
  'return_to_owner',
  'transfer_out',
  'return_to_field',
  'other_live',
  'died_in_care',
  'lost_in_care',
  'shelter_euthanasia',
  'owner_intended_euthanasia',
] as const;
export type IntakeType = (typeof INTAKE_TYPES)[number];
export type OutcomeType = (typeof OUTCOME_TYPES)[number];
export const KINDS = ['intake', 'outcome'] as const;
export type Kind = (typeof KINDS)[number];
/** Live outcomes in the Shelter Animals Count sense (the others are deaths and losses). */
export const LIVE_OUTCOMES: readonly OutcomeType[] = ['adoption', 'return_to_owner', 'transfer_out', 'return_to_field', 'other_live'];

export const CONDITIONS = ['healthy', 'treatable', 'unhealthy_untreatable', 'unknown'] as const;
export const HOLD_REASONS = [
  'stray_hold',
  'bite_quarantine',
  'medical',
  'behaviour',
  'legal_evidence',
  'not_for_adoption',
  'other',
] as const;

export const categoriesOf = (kind: Kind): readonly string[] => (kind === 'intake' ? INTAKE_TYPES : OUTCOME_TYPES);

/** The subtype a return after adoption gets when none is given. */
export const ADOPTION_RETURN_SUBTYPE = 'Returned after adoption';

/** Every organization's starting subtypes: [kind, name, category]. */
export const DEFAULT_SUBTYPES: [Kind, string, string][] = [
  // Intake: Animal Shelter Manager's entry reasons, each under its Shelter Animals Count category.
  ['intake', 'Stray', 'stray'],
  ['intake', 'Abandoned', 'stray'],
  ['intake', 'Sick/Injured', 'stray'],
  ['intake', 'TNR - Trap/Neuter/Release', 'stray'],
  ['intake', 'Surrender', 'relinquished'],
  ['intake', 'Marriage/Relationship split', 'relinquished'],
  ['intake', 'Allergies', 'relinquished'],
  ['intake', 'Biting', 'relinquished'],
  ['intake', 'Unable to Cope', 'relinquished'],
  ['intake', 'Unsuitable Accommodation', 'relinquished'],
  ['intake', 'Unable to Afford', 'relinquished'],
  ['intake', 'Too Many Animals', 'relinquished'],
  ['intake', 'Owner Died', 'relinquished'],
  ['intake', ADOPTION_RETURN_SUBTYPE, 'relinquished'],
  ['intake', 'Owner requested euthanasia', 'owner_intended_euthanasia'],
  ['intake', 'Transfer from Other Shelter', 'transfer_in'],
  ['intake', 'Transfer from Municipal Shelter', 'transfer_in'],
  ['intake', 'Born in Shelter', 'other'],
  ['intake', 'Abuse', 'other'],
  ['intake', 'Boarding', 'other'],
  // Outcome: its movement types and death reasons.
  ['outcome', 'Adoption', 'adoption'],
  ['outcome', 'Reclaimed', 'return_to_owner'],
  ['outcome', 'Transfer', 'transfer_out'],
  ['outcome', 'Retailer', 'transfer_out'],
  ['outcome', 'Returned to field (TNR)', 'return_to_field'],
  ['outcome', 'Released To Wild', 'other_live'],
  ['outcome', 'Died', 'died_in_care'],
  ['outcome', 'Died in foster', 'died_in_care'],
  ['outcome', 'Escaped', 'lost_in_care'],
  ['outcome', 'Stolen', 'lost_in_care'],
  ['outcome', 'Euthanised', 'shelter_euthanasia'],
  ['outcome', 'Euthanised at owner request', 'owner_intended_euthanasia'],
];

/**
 * Every organization's starting mapping: category → the name of a default animal status (null: leave the
 * status as it is). A name the organization no longer has maps to nothing.
 */
export const DEFAULT_STATUS_MAP: Record<Kind, Record<string, string | null>> = {
  intake: { stray: 'Intake', relinquished: 'Intake', owner_intended_euthanasia: 'Intake', transfer_in: 'Intake', other: 'Intake' },
  outcome: {
    adoption: 'Adopted',
    return_to_owner: 'Returned to Owner',
    transfer_out: 'Transferred Out',
    return_to_field: null,
    other_live: null,
    died_in_care: 'Deceased',
    lost_in_care: null,
    shelter_euthanasia: 'Deceased',
    owner_intended_euthanasia: 'Deceased',
  },
};
