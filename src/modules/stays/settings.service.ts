import type { Db } from '../../platform/db/db.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { pageB } from '../../platform/pagination.ts';
import { animalStatusList } from '../animals/public.ts';
import { categoriesOf, INTAKE_TYPES, KINDS, OUTCOME_TYPES, type Kind } from './catalogue.ts';
import * as repo from './repository.ts';
import { ensureDefaults } from './service.ts';
import type { StatusMapPatchT, SubtypeCreateT, SubtypePatchT } from './schemas.ts';

export async function listSubtypes(
  db: Db,
  orgId: string,
  query: { limit: number; offset: number; kind?: Kind; include_retired?: boolean },
) {
  await ensureDefaults(db, orgId);
  const rows = await repo.listSubtypes(db, orgId, query, query.limit + 1, query.offset);
  return pageB(rows, query.limit, query.offset);
}

function checkCategory(kind: Kind, category: string) {
  if (!categoriesOf(kind).includes(category))
    throw invalid({ category: [`must be one of the ${kind} categories: ${categoriesOf(kind).join(', ')}`] });
}
const duplicate = (name: string) => invalid({ name: [`a subtype named ${name} already exists`] });

export async function createSubtype(db: Db, orgId: string, body: SubtypeCreateT, actor: string) {
  checkCategory(body.kind, body.category);
  await ensureDefaults(db, orgId);
  return db.tx(async (q) => {
    const name = body.name.trim();
    if (!name) throw invalid({ name: ['must not be empty'] });
    if (await repo.subtypeByName(q, orgId, body.kind, name)) throw duplicate(name);
    const row = await repo.insertSubtype(q, orgId, {
      kind: body.kind,
      name,
      category: body.category,
      sort_order: body.sort_order ?? (await repo.maxSubtypeOrder(q, orgId, body.kind)) + 10,
    });
    await audit(q, orgId, actor, 'create', 'stay_subtype', row.id, body);
    return row;
  });
}

export async function updateSubtype(db: Db, orgId: string, id: string, body: SubtypePatchT, actor: string) {
  return db.tx(async (q) => {
    const current = await repo.getSubtype(q, orgId, id);
    if (!current) throw notFound('subtype');
    const name = body.name?.trim();
    if (body.name !== undefined && !name) throw invalid({ name: ['must not be empty'] });
    if (name && name.toLowerCase() !== current.name.toLowerCase() && (await repo.subtypeByName(q, orgId, current.kind, name)))
      throw duplicate(name);
    if (body.category !== undefined && body.category !== current.category) {
      checkCategory(current.kind, body.category);
      const uses = await repo.subtypeUses(q, orgId, id);
      if (uses > 0)
        throw invalid({ category: [`${uses} record${uses === 1 ? ' uses' : 's use'} this subtype; add a new subtype instead`] });
    }
    const row = await repo.updateSubtype(q, orgId, id, { ...body, name });
    await audit(q, orgId, actor, 'update', 'stay_subtype', id, body);
    return row ?? current;
  });
}

export async function deleteSubtype(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    if (!(await repo.getSubtype(q, orgId, id))) throw notFound('subtype');
    const uses = await repo.subtypeUses(q, orgId, id);
    if (uses > 0) throw invalid({ id: [`${uses} record${uses === 1 ? ' uses' : 's use'} this subtype; retire it instead`] });
    await repo.deleteSubtype(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'stay_subtype', id);
  });
}

export async function statusMapOf(db: Db, orgId: string) {
  await ensureDefaults(db, orgId);
  const rows = await repo.statusMapRows(db, orgId);
  const statuses = await animalStatusList(db, orgId);
  const results = [];
  for (const kind of KINDS) {
    for (const category of categoriesOf(kind)) {
      const id = rows.find((r) => r.kind === kind && r.category === category)?.status_id ?? null;
      const status = id ? (statuses.find((s) => s.id === id) ?? null) : null;
      results.push({ kind, category, status_id: status?.id ?? null, status: status?.name ?? null });
    }
  }
  return { results };
}

export async function patchStatusMap(db: Db, orgId: string, body: StatusMapPatchT, actor: string) {
  await ensureDefaults(db, orgId);
  const statuses = await animalStatusList(db, orgId);
  const changes: { kind: Kind; category: string; statusId: string | null }[] = [];
  const problems: Record<string, string[]> = {};
  for (const [kind, cats] of [
    ['intake', INTAKE_TYPES],
    ['outcome', OUTCOME_TYPES],
  ] as const) {
    const sent = (body[kind] ?? {}) as Record<string, string | null | undefined>;
    for (const category of cats) {
      const name = sent[category];
      if (name === undefined) continue;
      if (name === null) {
        changes.push({ kind, category, statusId: null });
        continue;
      }
      const status = statuses.find((s) => s.name === name);
      if (!status)
        (problems[`${kind}.${category}`] ??= []).push(`${name} is not a configured animal status (see GET /api/animals/statuses)`);
      else changes.push({ kind, category, statusId: status.id });
    }
  }
  if (Object.keys(problems).length) throw invalid(problems);
  await db.tx(async (q) => {
    for (const c of changes) await repo.setMapping(q, orgId, c.kind, c.category, c.statusId);
    await audit(q, orgId, actor, 'update', 'stay_status_map', orgId, body);
  });
  return statusMapOf(db, orgId);
}
