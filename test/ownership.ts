/**
 * Table ownership, checked from the statements themselves. Each table belongs to one module (the area whose
 * migration creates it; the kernel's first migration created the core areas' tables, listed here by area). A module
 * never writes another module's table and never reads one raw: it calls what the owner exports (`public.ts`), or reads
 * the owner's read view (people_directory, animal_directory, donation_ledger, the report views). The kernel
 * (src/platform, src/app.ts) writes only the platform's own tables; it reaches a module's table through an interface
 * the owner registers.
 *
 * The statements come from the database's side of the wire: with ARK_SQL_TRACE_DIR set, src/platform/db/trace.ts
 * records every statement any pg client sends, tagged with the source file under src/ that sent it, and each is
 * parsed here by libpg-query (PostgreSQL's own parser): case, schema qualification, names built in variables,
 * comma joins, CTEs and subqueries read the same as the server reads them. test/run.ts runs the check after each
 * store's test run; test/module-ownership.test.ts proves it on fixtures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'libpg-query';
import type { TracedStatement } from '../src/platform/db/trace.ts';

/** Table → owning module. `platform` tables (the audit journal, idempotency keys) are shared infrastructure. */
export const OWNERS: Record<string, string> = {
  application_fee_payments: 'adoptions',
  public_listing: 'publicsite',
  public_listing_tallies: 'publicsite',
  public_listing_month_tallies: 'publicsite',
  public_listing_day_tallies: 'publicsite',
  external_ids: 'moving',
  portal_accounts: 'portal',
  portal_tokens: 'portal',
  portal_sessions: 'portal',
  portal_sign_in_attempts: 'portal',
  portal_updates: 'portal',
  portal_settings: 'portal',
  moving_runs: 'moving',
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
  // 1980: the search boxes' suffixes, kept by trigger on people and animals (dropped by 2060).
  people_search_terms: 'people',
  // Dropped by 2050 (the name search reads the distinct names since).
  animal_name_terms: 'animals',
  animal_name_suffixes: 'animals',
  animal_name_counts: 'animals',
  // 2060: people's distinct names and contact suffixes (the people search since; 1980's table dropped).
  people_name_suffixes: 'people',
  people_name_counts: 'people',
  people_contact_terms: 'people',
  // 1990: each donor's giving, kept by trigger on donations.
  donor_giving: 'donations',
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
};

export const owner = (table: string): string | undefined => OWNERS[table.toLowerCase()];

/** One table a statement touches; `module` is set when it sits in a part another module contributed through a hook. */
export interface Touch {
  table: string;
  kind: 'write' | 'read';
  module?: string;
}

/** A CTE a module contributed through the kernel's hook registry is named `<module>__<n>` (src/platform/hooks.ts). */
const PART = /^([a-z0-9_]+?)__\d+$/;

/** The tables a statement writes and reads, as PostgreSQL parses it (CTE names are not tables). */
export async function tablesOf(sql: string): Promise<Touch[]> {
  const tree = await parse(sql);
  const touches: Touch[] = [];
  const ctes = new Set<string>();
  const targets = new Set<unknown>();
  const name = (rv: { relname?: string; schemaname?: string }) =>
    rv.schemaname && rv.schemaname !== 'public' ? `${rv.schemaname}.${rv.relname}` : (rv.relname ?? '').toLowerCase();
  const walk = (node: unknown, module: string | undefined): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, module);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, any>;
    for (const kind of ['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']) {
      const rel = o[kind]?.relation;
      if (rel) {
        touches.push({ table: name(rel), kind: 'write', module });
        targets.add(rel);
      }
    }
    for (const rel of o.TruncateStmt?.relations ?? []) {
      if (rel.RangeVar) {
        touches.push({ table: name(rel.RangeVar), kind: 'write', module });
        targets.add(rel.RangeVar);
      }
    }
    if (o.RangeVar && !targets.has(o.RangeVar)) touches.push({ table: name(o.RangeVar), kind: 'read', module });
    const cte = o.CommonTableExpr;
    if (cte?.ctename) {
      const n = String(cte.ctename).toLowerCase();
      ctes.add(n);
      walk(cte.ctequery, PART.exec(n)?.[1] ?? module);
      return;
    }
    for (const v of Object.values(o)) walk(v, module);
  };
  walk(tree, undefined);
  return touches.filter((t) => !ctes.has(t.table));
}

/**
 * Writes to other modules' tables a file may still make, each with its reason. Adding one needs a reason here.
 */
export const KNOWN_WRITES: Record<string, string> = {
  'modules/people/merge.ts':
    'a person merge (and its undo) moves the person columns their owners registered with registerPersonReferences; ' +
    'each owner moving its own rows on a hook is the next step',
};

export interface Violation {
  file: string;
  module: string;
  table: string;
  owner: string;
  kind: 'write' | 'read';
  sql: string;
}

/**
 * Statements that break ownership: a module writing or reading raw a table another module owns (the platform's
 * tables are everyone's), or a kernel file writing a module's table. One entry per file, table and kind.
 */
export async function ownershipViolations(statements: TracedStatement[]): Promise<Violation[]> {
  const out = new Map<string, Violation>();
  for (const s of statements) {
    let touches: Touch[];
    try {
      touches = await tablesOf(s.sql);
    } catch {
      continue; // not SQL PostgreSQL would run either: the statement failed at the server
    }
    for (const { table, kind, module: part } of touches) {
      const module = part ?? s.module;
      const o = owner(table);
      if (!o || o === 'platform' || o === module) continue;
      if (module === 'platform' && kind === 'read') continue; // the kernel reads the access tables to authenticate
      if (kind === 'write' && !part && KNOWN_WRITES[s.file]) continue;
      const key = `${s.file} ${kind} ${table}`;
      if (!out.has(key)) out.set(key, { file: s.file, module, table, owner: o, kind, sql: s.sql.replace(/\s+/g, ' ').slice(0, 160) });
    }
  }
  return [...out.values()].sort((a, b) => `${a.file} ${a.table}`.localeCompare(`${b.file} ${b.table}`));
}

/** Every statement traced into `dir` (one JSON line each, a file per process). */
export function tracedStatements(dir: string): TracedStatement[] {
  const out: TracedStatement[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return out;
  }
  for (const n of names)
    for (const line of readFileSync(join(dir, n), 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as TracedStatement);
  return out;
}

/** The tables and views the migrations create, read by the same parser. */
export async function createdRelations(migrationsDir: string): Promise<{ tables: Set<string>; views: Set<string> }> {
  const tables = new Set<string>();
  const views = new Set<string>();
  for (const f of readdirSync(migrationsDir)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    const tree = await parse(readFileSync(join(migrationsDir, f), 'utf8'));
    for (const { stmt } of tree.stmts as { stmt: Record<string, any> }[]) {
      if (stmt.CreateStmt?.relation?.relname) tables.add(stmt.CreateStmt.relation.relname);
      if (stmt.ViewStmt?.view?.relname) views.add(stmt.ViewStmt.view.relname);
    }
  }
  return { tables, views };
}
