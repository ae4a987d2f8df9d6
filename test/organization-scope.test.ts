/**
 * The schema distributes by organization: every table carries `organization_id`, and every
 * primary key and index starts with it, so each organization's rows sit together (one shard on
 * Citus) and every lookup can be routed by organization. Checked on the migrated database.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Db, type Queryable } from '../src/platform/db/db.ts';
import { base62 } from '../src/platform/ids.ts';
import { createOrganization } from '../src/modules/settings/service.ts';

/** The only tables, keys and indexes that may not lead with organization_id, and why. */
export const EXCEPTIONS: Record<string, string> = {
  // tables
  organizations: 'the list of tenants itself; keyed by its own id (a reference table on Citus)',
  schema_migrations: 'which migration files ran; one row per file, for the whole database',
  comm_platform_suppressions: 'addresses no organization may send to (hard bounces, abuse reports), platform-wide by design',
  registry_searches: 'the registry lookup log: keyless searches belong to no organization (abuse review is platform-wide)',
  // their keys and indexes
  organizations_pkey: 'the tenant id is the key',
  organizations_slug_key: 'Host → organization lookup happens before any organization is known',
  schema_migrations_pkey: 'migration file name',
  comm_platform_suppressions_pkey: 'the address is the key of a platform-wide list',
  registry_searches_pkey: 'a platform-wide log (see registry_searches)',
  registry_searches_time: 'a platform-wide log read by time for abuse review',
  animals_name_search:
    'a trigram (GIN) index on the folded name: a GIN index cannot lead with a text key; ' +
    'the name search also filters by organization_id, checked on each match',
  jobs_due_by_kind: 'the job worker claims due work of every organization by kind (a queue shared by the whole server)',
  registry_flag_keys_hash: 'flag matching looks a keyed hash up across organizations by design',
  registry_flag_reviews_by_flag: "the raising organization lists every organization's review of its flag",
  jobs_due: 'the job worker claims due jobs of every organization (src/platform/jobs.ts)',
  jobs_running: 'the job worker finds expired claims of every organization',
  registry_chips_number: 'the microchip lookup searches published copies by number across organizations by design',
  // GIN indexes over arrays cannot lead with a text column without the btree_gin extension; every
  // query using them also filters on organization_id, and on Citus each shard indexes only its own organizations.
  people_roles: 'GIN over people.roles (see above)',
  people_tags: 'GIN over people.tags (see above)',
  people_search: 'trigram GIN over people.search (see above); queries still filter organization_id',
  people_name_trgm: 'trigram GIN over the full name for the duplicate finder (see above); queries still filter organization_id',
};

interface Finding {
  kind: 'table' | 'primary key' | 'index';
  name: string;
  table: string;
}

/** Every table, primary key and index in the public schema that does not lead with organization_id. */
export async function unscoped(q: Queryable): Promise<Finding[]> {
  const tables = await q.query<{ table_name: string }>(
    `SELECT t.table_name FROM information_schema.tables t
      WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND NOT EXISTS (SELECT 1 FROM information_schema.columns c
                         WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
                           AND c.column_name = 'organization_id' AND c.is_nullable = 'NO')
      ORDER BY 1`,
  );
  // indkey[0] is the first key column (0 when it is an expression).
  const indexes = await q.query<{ index_name: string; table_name: string; is_primary: boolean }>(
    `SELECT ic.relname AS index_name, tc.relname AS table_name, i.indisprimary AS is_primary
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class tc ON tc.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = tc.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = tc.oid AND a.attnum = i.indkey[0]
      WHERE n.nspname = current_schema() AND tc.relkind IN ('r', 'p')
        AND (a.attname IS DISTINCT FROM 'organization_id')
      ORDER BY 2, 1`,
  );
  const tablesWithoutKey = await q.query<{ table_name: string }>(
    `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
      ORDER BY 1`,
  );
  return [
    ...tables.map((r) => ({ kind: 'table' as const, name: r.table_name, table: r.table_name })),
    ...tablesWithoutKey.map((r) => ({ kind: 'primary key' as const, name: `${r.table_name} (none)`, table: r.table_name })),
    ...indexes.map((r) => ({
      kind: r.is_primary ? ('primary key' as const) : ('index' as const),
      name: r.index_name,
      table: r.table_name,
    })),
  ];
}

let db: Db;
before(() => {
  const url = process.env.ARK_TEST_DATABASE_URL;
  if (!url) throw new Error('ARK_TEST_DATABASE_URL is not set: run the tests with `npm test`');
  db = new Db(url, 2);
});
after(async () => db.close());

test('every table, primary key and index leads with organization_id, but the listed exceptions', async () => {
  const found = (await unscoped(db)).filter((f) => !(f.name in EXCEPTIONS));
  assert.deepEqual(
    found,
    [],
    `not scoped by organization (lead with organization_id, or list it in EXCEPTIONS with a ` +
      `reason):\n${found.map((f) => `  ${f.kind} ${f.name} on ${f.table}`).join('\n')}`,
  );
});

test('every listed exception still exists (a stale entry is removed, not kept)', async () => {
  const names = new Set((await unscoped(db)).map((f) => f.name));
  assert.deepEqual(
    Object.keys(EXCEPTIONS).filter((n) => !names.has(n)),
    [],
  );
});

test('the check catches a table, a key and an index that do not lead with organization_id', async () => {
  await assert.rejects(
    db.tx(async (q) => {
      await q.query('CREATE TABLE scope_probe_a (id text PRIMARY KEY, organization_id text NOT NULL, note text)');
      await q.query('CREATE INDEX scope_probe_a_note ON scope_probe_a (note, organization_id)');
      await q.query('CREATE TABLE scope_probe_b (organization_id text NOT NULL, id text NOT NULL, PRIMARY KEY (organization_id, id))');
      await q.query('CREATE INDEX scope_probe_b_lower ON scope_probe_b (lower(id))');
      await q.query('CREATE TABLE scope_probe_c (id text)');
      const found = (await unscoped(q)).filter((f) => f.table.startsWith('scope_probe_'));
      assert.deepEqual(found.map((f) => `${f.kind}:${f.name}`).sort(), [
        'index:scope_probe_a_note',
        'index:scope_probe_b_lower',
        'primary key:scope_probe_a_pkey',
        'primary key:scope_probe_c (none)',
        'table:scope_probe_c',
      ]);
      throw new Error('roll back the probes');
    }),
    /roll back the probes/,
  );
});

/**
 * Foreign keys to `organizations` that a write need not check (migration 1700): one on a table whose rows also
 * reference an organization's own record through a NOT NULL (organization_id, …) key (that parent already belongs to
 * an existing organization), and any on the two append-only logs every write adds to. Each such check locks the one
 * organization row every concurrent write of that organization shares.
 */
export async function redundantOrganizationKeys(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT c.conrelid::regclass::text || '.' || c.conname AS name
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND c.contype = 'f' AND c.confrelid = 'organizations'::regclass
        AND array_length(c.conkey, 1) = 1
        AND (t.relname IN ('audit_log', 'ark_changes')
             OR EXISTS (SELECT 1 FROM pg_constraint x
                         WHERE x.contype = 'f' AND x.conrelid = c.conrelid AND x.confrelid <> 'organizations'::regclass
                           AND c.conkey[1] = ANY (x.conkey)
                           AND NOT EXISTS (SELECT 1 FROM unnest(x.conkey) k
                                             JOIN pg_attribute a ON a.attrelid = x.conrelid AND a.attnum = k
                                            WHERE NOT a.attnotnull)))
      ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

test('no write checks the organization row when a parent record already proves it', async () => {
  assert.deepEqual(await redundantOrganizationKeys(db), []);
  // The rule catches a new table that references organizations beside its NOT NULL parent key, and not one whose
  // parent key may be null (then nothing else proves the organization).
  await assert.rejects(
    db.tx(async (q) => {
      await q.query(`CREATE TABLE fk_probe_a (organization_id text NOT NULL REFERENCES organizations(id), id text NOT NULL,
        animal_id text NOT NULL, PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id))`);
      await q.query(`CREATE TABLE fk_probe_b (organization_id text NOT NULL REFERENCES organizations(id), id text NOT NULL,
        animal_id text, PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, animal_id) REFERENCES animals(organization_id, id))`);
      assert.deepEqual(
        (await redundantOrganizationKeys(q)).filter((n) => n.startsWith('fk_probe_')),
        ['fk_probe_a.fk_probe_a_organization_id_fkey'],
      );
      throw new Error('roll back the probes');
    }),
    /roll back the probes/,
  );
});

test('an organization is never deleted (its logs refer to it without a foreign key)', async () => {
  const org = await createOrganization(db, { slug: `never-deleted-${base62(8).toLowerCase()}`, name: 'Kept' });
  assert.ok(org);
  await assert.rejects(db.query('DELETE FROM organizations WHERE id = $1', [org.id]), /an organization is never deleted/);
  assert.equal((await db.query('SELECT 1 FROM organizations WHERE id = $1', [org.id])).length, 1);
});
