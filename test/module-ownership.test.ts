// Modules own their tables. Each table belongs to one module (the area whose migration creates it; the
// kernel's first migration created the core areas' tables, listed here by area). A module never writes
// another module's table: it calls a function the owner exports (`public.ts` or `index.ts`). A module
// imports from another module only those two files. Reads of another module's table go through what its
// owner exports; the few raw reads still left are listed below, and a new one fails this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const MODULES_DIR = join(ROOT, 'src/modules');

/** Table → owning module. `platform` tables (the audit journal, idempotency keys) are shared infrastructure. */
const OWNERS: Record<string, string> = {
  // 0001 kernel, 0003, 0020: settings (organizations and access), animals, people, donations.
  organizations: 'settings',
  roles: 'settings',
  api_keys: 'settings',
  animal_statuses: 'animals',
  animals: 'animals',
  animal_counts: 'animals',
  animal_tallies: 'animals',
  animal_location_tallies: 'animals',
  people: 'people',
  people_tallies: 'people',
  donations: 'donations',
  donation_day_tallies: 'donations',
  donation_tallies: 'donations',
  audit_log: 'platform',
  idempotency_keys: 'platform',
  jobs: 'platform',
  // 0200–0299 communications.
  comm_templates: 'communications',
  comm_template_versions: 'communications',
  comm_inboxes: 'communications',
  comm_conversations: 'communications',
  comm_messages: 'communications',
  comm_send_requests: 'communications',
  comm_suppressions: 'communications',
  comm_platform_suppressions: 'communications',
  comm_contact_preferences: 'communications',
  comm_unsubscribe_tokens: 'communications',
  comm_sender_settings: 'communications',
  comm_attachments: 'communications',
  // 0300–0399 operations (custom field definitions, created there, are the customfields module's).
  custom_field_definitions: 'customfields',
  locations: 'operations',
  housing_units: 'operations',
  foster_homes: 'operations',
  foster_assignments: 'operations',
  transport_runs: 'operations',
  transport_legs: 'operations',
  transport_animals: 'operations',
  // 0400–0499 fundraising.
  fundraising_campaigns: 'fundraising',
  fundraising_wish_items: 'fundraising',
  auctions: 'fundraising',
  auction_bidders: 'fundraising',
  auction_lots: 'fundraising',
  auction_bids: 'fundraising',
  // 0500–0599 shifts.
  shift_locations: 'shifts',
  shift_schedules: 'shifts',
  shift_qualifications: 'shifts',
  shift_roles: 'shifts',
  volunteer_qualifications: 'shifts',
  shift_windows: 'shifts',
  shift_bookings: 'shifts',
  shift_policies: 'shifts',
  shift_feed_tokens: 'shifts',
  // 0700–0749 medical.
  medical_items: 'medical',
  medical_protocols: 'medical',
  medical_records: 'medical',
  medical_due: 'medical',
  animal_calendar_feeds: 'medical',
  // 1000–1049 registry.
  registry_settings: 'registry',
  registry_animal_optouts: 'registry',
  registry_chips: 'registry',
  registry_searches: 'registry',
  registry_flags: 'registry',
  registry_flag_keys: 'registry',
  registry_flag_reviews: 'registry',
  registry_marks: 'registry',
  registry_disputes: 'registry',
  registry_flag_history: 'registry',
  // 0600–0649 stays.
  stay_subtypes: 'stays',
  stay_status_map: 'stays',
  stay_defaults_seeded: 'stays',
  animal_stays: 'stays',
  animal_holds: 'stays',
  // 0900–0949 media.
  animal_photos: 'media',
  animal_documents: 'media',
  // 0060–0099 animals: microchips and weights.
  animal_microchips: 'animals',
  animal_weights: 'animals',
  // 1500–1599 public website.
  public_site_settings: 'publicsite',
  syndication_targets: 'publicsite',
  // 0800–0849 care.
  care_notes: 'care',
  care_nutrition_plans: 'care',
  care_bonds: 'care',
  care_mothers: 'care',
  care_litters: 'care',
  care_litter_members: 'care',
  care_tags: 'care',
  care_breeds: 'care',
  care_profiles: 'care',
  care_age_groups: 'care',
  care_behaviour_attributes: 'care',
  care_behaviour_values: 'care',
  // 1250–1299 forms, tasks, events.
  forms: 'forms',
  form_submissions: 'forms',
  task_templates: 'tasks',
  tasks: 'tasks',
  org_calendar_feeds: 'tasks',
  events: 'events',
  event_attendees: 'events',
  // 1820 the events calendar feed.
  event_calendar_feeds: 'events',
  // 1200–1249 people in depth; 1210 partners.
  person_contacts: 'people',
  person_addresses: 'people',
  person_notes: 'people',
  person_flags: 'people',
  person_duplicate_dismissals: 'people',
  person_merges: 'people',
  partners: 'partners',
  partner_locations: 'partners',
  partner_affiliations: 'partners',
  // 1600–1699 members.
  members: 'members',
  member_sessions: 'members',
  member_tokens: 'members',
  member_recovery_codes: 'members',
  member_sign_in_failures: 'members',
  member_keys: 'members',
  adoption_stages: 'adoptions',
  adoption_defaults_seeded: 'adoptions',
  adoption_applications: 'adoptions',
  adoption_application_animals: 'adoptions',
  adoption_fee_schedules: 'adoptions',
  contract_templates: 'adoptions',
  contract_template_versions: 'adoptions',
  signed_contracts: 'adoptions',
  adoptions: 'adoptions',
  adoption_donations: 'adoptions',
  cage_card_templates: 'adoptions',
  adoption_settings: 'adoptions',
  // 1400–1499 integrations (the change outbox is the platform's: every module records into it).
  ark_changes: 'platform',
  webhook_endpoints: 'integrations',
  webhook_cursors: 'integrations',
  webhook_deliveries: 'integrations',
  webhook_attempts: 'integrations',
  import_mappings: 'integrations',
  import_runs: 'integrations',
  // 1300–1399 reports.
  report_sac_submissions: 'reports',
  report_schedules: 'reports',
  report_schedule_runs: 'reports',
  // 1900–1919 the people's portal.
  portal_accounts: 'portal',
  portal_tokens: 'portal',
  portal_sessions: 'portal',
  portal_sign_in_attempts: 'portal',
  portal_updates: 'portal',
  portal_settings: 'portal',
};

/**
 * Raw reads of another module's table that remain (file → tables). Each is a join a list needs for speed
 * or a total computed in SQL; moving them behind an owner's view is follow-up work. Adding one fails.
 */
const KNOWN_READS: Record<string, string[]> = {};

interface Source {
  module: string;
  file: string;
  text: string;
}
function sources(): Source[] {
  const out: Source[] = [];
  for (const module of readdirSync(MODULES_DIR)) {
    const dir = join(MODULES_DIR, module);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      out.push({ module, file: `${module}/${name}`, text: readFileSync(join(dir, name), 'utf8') });
    }
  }
  return out;
}
const owner = (table: string) => OWNERS[table.toLowerCase()];

test('the ownership map names every table the migrations create', () => {
  const created = new Set<string>();
  for (const f of readdirSync(join(ROOT, 'migrations')).filter((n) => n.endsWith('.sql'))) {
    for (const m of readFileSync(join(ROOT, 'migrations', f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/gi))
      if (m[1]) created.add(m[1].toLowerCase());
  }
  const missing = [...created].filter((t) => !owner(t));
  assert.deepEqual(missing, [], 'add these tables to OWNERS in test/module-ownership.test.ts');
});

test('no module writes a table another module owns', () => {
  const found: string[] = [];
  for (const s of sources()) {
    for (const [, verb, table] of s.text.matchAll(/\b(INSERT INTO|UPDATE|DELETE FROM)\s+([a-z_][a-z0-9_]*)/g)) {
      if (!verb || !table) continue;
      const o = owner(table);
      if (o && o !== 'platform' && o !== s.module) found.push(`${s.file}: ${verb} ${table} (owned by ${o})`);
    }
  }
  assert.deepEqual(found, []);
});

test('a module imports another module only through its index.ts or public.ts', () => {
  const found: string[] = [];
  for (const s of sources()) {
    for (const m of s.text.matchAll(/from '\.\.\/([a-z]+)\/([^']+)'/g)) {
      if (m[2] !== 'index.ts' && m[2] !== 'public.ts') found.push(`${s.file}: imports ../${m[1]}/${m[2]}`);
    }
  }
  assert.deepEqual(found, []);
});

test("raw reads of another module's tables: none beyond the known ones", () => {
  const found: Record<string, Set<string>> = {};
  for (const s of sources()) {
    for (const [, table] of s.text.matchAll(/\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)/g)) {
      if (!table) continue;
      const o = owner(table);
      if (o && o !== 'platform' && o !== s.module) (found[s.file] ??= new Set()).add(table);
    }
  }
  const extra: string[] = [];
  for (const [file, tables] of Object.entries(found)) {
    for (const t of tables) if (!KNOWN_READS[file]?.includes(t)) extra.push(`${file}: ${t}`);
  }
  assert.deepEqual(extra, [], 'read through what the owning module exports (a view, a fragment or a function)');
});
