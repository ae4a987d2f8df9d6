import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import type { Target } from './import.presets.ts';

/** Source column header → field (the `columns` column of a saved mapping, written only from checked bodies). */
type Columns = Record<string, string>;
const MAPPING_COLS = ['id', 'name', 'columns', 'created_at', 'updated_at'] as const;
const withColumns = <R extends { columns: unknown }>(row: R) => row as Omit<R, 'columns'> & { columns: Columns };

/** The columns of a saved mapping of the list, or null when the id names none. */
export async function mappingColumns(q: Queryable, orgId: string, target: Target, id: string): Promise<Columns | null> {
  const row = await kx(q)
    .selectFrom('import_mappings')
    .select('columns')
    .where('organization_id', '=', orgId)
    .where('target', '=', target)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? (row.columns as Columns) : null;
}

/** The list's saved mappings by name, a page (one more than `limit`, to tell whether more follow). */
export async function listMappings(q: Queryable, orgId: string, target: Target, limit: number, offset: number) {
  const rows = await kx(q)
    .selectFrom('import_mappings')
    .select(MAPPING_COLS)
    .where('organization_id', '=', orgId)
    .where('target', '=', target)
    .orderBy('name')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return rows.map(withColumns);
}

/** Saves a mapping under its name: a new one, or the one of that name replaced (same id). */
export async function saveMapping(q: Queryable, orgId: string, target: Target, id: string, name: string, columns: Columns) {
  const row = await kx(q)
    .insertInto('import_mappings')
    .values({ organization_id: orgId, id, target, name, columns: JSON.stringify(columns) })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'target', 'name']).doUpdateSet({ columns: (e) => e.ref('excluded.columns'), updated_at: sql`now()` }),
    )
    .returning(MAPPING_COLS)
    .executeTakeFirst();
  return row ? withColumns(row) : null;
}

/** Deletes a saved mapping; false when the id names none of the list. */
export async function deleteMapping(q: Queryable, orgId: string, target: Target, id: string): Promise<boolean> {
  const gone = await kx(q)
    .deleteFrom('import_mappings')
    .where('organization_id', '=', orgId)
    .where('target', '=', target)
    .where('id', '=', id)
    .returning('id')
    .execute();
  return gone.length > 0;
}
