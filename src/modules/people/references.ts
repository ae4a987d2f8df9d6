/**
 * Which columns of which tables name a person: the registry a merge moves (and its undo moves back).
 * Owners register their tables (`registerPersonReferences` from people/public.ts, called from their
 * index.ts); the tables of the areas that existed before the registry are registered here, in one place,
 * with the owner named. test/person-references.test.ts fails when a table's person column is neither
 * registered nor listed in PERSON_REFERENCE_EXCEPTIONS.
 */
export interface PersonReference {
  /** The module that owns the table. */
  module: string;
  table: string;
  columns: string[];
  /** An extra SQL condition on the table's rows (a polymorphic link: `linked_type = 'person'`). */
  where?: string;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;
const registry: PersonReference[] = [];

/** Declares that `columns` of `table` (owned by `module`) name a person, so a merge moves them to the survivor. */
export function registerPersonReferences(module: string, table: string, columns: string[], opts: { where?: string } = {}): void {
  for (const c of [table, ...columns]) if (!IDENT.test(c)) throw new Error(`person reference: ${c} is not a plain identifier`);
  if (registry.some((r) => r.table === table && r.columns.some((c) => columns.includes(c)))) return;
  registry.push({ module, table, columns, where: opts.where });
}
export function personReferences(): readonly PersonReference[] {
  return registry;
}

/** Person columns a merge leaves alone, each with the reason. */
export const PERSON_REFERENCE_EXCEPTIONS: Record<string, string> = {
  'person_duplicate_dismissals.person_a':
    'a dismissed pair; a pair with a merged person is never listed again, and an undo finds the pair as it was',
  'person_duplicate_dismissals.person_b': 'as person_a',
  'person_merges.merged_person_id': 'the merge record itself',
  'person_merges.survivor_person_id': 'the merge record itself',
  'comm_conversations.person_confirmed': 'a yes/no flag, not a reference',
  'people_contact_terms.person_id':
    "the search box's suffixes of a live person's email and phone, kept by trigger: a merge's soft delete removes them, " +
    'an undo writes them again',
};

// People's own tables.
registerPersonReferences('people', 'person_contacts', ['person_id']);
registerPersonReferences('people', 'person_addresses', ['person_id']);
registerPersonReferences('people', 'person_notes', ['person_id']);
registerPersonReferences('people', 'person_flags', ['person_id']);
// The areas that existed before the registry.
registerPersonReferences('donations', 'donations', ['donor_id']);
registerPersonReferences('operations', 'foster_homes', ['person_id']);
registerPersonReferences('operations', 'transport_legs', ['driver_person_id']);
registerPersonReferences('fundraising', 'auction_bidders', ['person_id']);
registerPersonReferences('shifts', 'shift_bookings', ['person_id']);
registerPersonReferences('shifts', 'volunteer_qualifications', ['person_id']);
registerPersonReferences('shifts', 'shift_feed_tokens', ['person_id']);
registerPersonReferences('stays', 'animal_stays', ['source_person_id', 'destination_person_id']);
registerPersonReferences('communications', 'comm_messages', ['person_id']);
registerPersonReferences('communications', 'comm_conversations', ['person_id', 'suggested_person_id']);
registerPersonReferences('communications', 'comm_contact_preferences', ['person_id']);
registerPersonReferences('communications', 'comm_unsubscribe_tokens', ['person_id']);
registerPersonReferences('registry', 'registry_flags', ['person_id']);
registerPersonReferences('adoptions', 'adoption_applications', ['person_id']);
registerPersonReferences('adoptions', 'adoptions', ['person_id']);
registerPersonReferences('adoptions', 'signed_contracts', ['person_id']);
registerPersonReferences('forms', 'form_submissions', ['person_id']);
registerPersonReferences('events', 'event_attendees', ['person_id']);
registerPersonReferences('tasks', 'tasks', ['linked_id'], { where: "linked_type = 'person'" });
