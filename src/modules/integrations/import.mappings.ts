/** Saved column mappings of the imports: saving and removing one, each with its audit row in one transaction. */
import type { Db } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { FIELDS, type Target } from './import.presets.ts';
import * as repo from './import.repository.ts';

/** Saves a mapping under its name (an existing one of that name is replaced, same id); 422 naming unknown fields. */
export async function saveMapping(
  db: Db,
  orgId: string,
  actor: string,
  target: Target,
  body: { name: string; columns: Record<string, string> },
) {
  const bad = Object.values(body.columns).filter((f) => !FIELDS[target].includes(f));
  if (bad.length) throw invalid({ columns: [`not fields of ${target}: ${[...new Set(bad)].join(', ')}`] });
  return db.tx(async (q) => {
    const saved = await repo.saveMapping(q, orgId, target, newId('imap'), body.name, body.columns);
    if (!saved) throw notFound('mapping');
    await audit(q, orgId, actor, 'save', 'import_mapping', saved.id, body);
    return saved;
  });
}

/** Removes a saved mapping of the list; 404 when the id names none. */
export async function deleteMapping(db: Db, orgId: string, actor: string, target: Target, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteMapping(q, orgId, target, id))) throw notFound('mapping');
    await audit(q, orgId, actor, 'delete', 'import_mapping', id);
  });
}
