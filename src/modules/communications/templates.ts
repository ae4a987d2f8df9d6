import type { Queryable } from '../../platform/db/db.ts';
import { newId } from '../../platform/ids.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { type Block, blocksFromText, bodyTemplateText, checkBlocks, fullBlocks, mergeFieldsIn, textsOf } from './blocks.ts';
import { CATEGORIES } from './schemas.ts';

export const KEY_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const PERSON_FIELDS = ['first_name', 'last_name', 'full_name', 'email', 'phone'];
export const ANIMAL_FIELDS = ['animal_name', 'animal_species', 'animal_breed', 'animal_sex', 'animal_id'];
export const ORG_FIELDS = ['org_name'];

export interface TemplateRow {
  id: string; key: string; name: string | null; channel: 'email'; subject_template: string; body_template_blocks: Block[];
  variables: { name: string; description: string | null }[]; metadata: Record<string, string | number | boolean | null>; status: 'active' | 'draft' | 'archived';
  version: number; version_published: boolean; created_at: Date; updated_at: Date; organization_id: string;
}
const COLS = 'organization_id, id, key, name, channel, subject_template, body_template_blocks, variables, metadata, status, version, version_published, created_at, updated_at';

function sourceOf(name: string): 'person' | 'animal' | 'organization' | 'variables' {
  if (PERSON_FIELDS.includes(name)) return 'person';
  if (ANIMAL_FIELDS.includes(name)) return 'animal';
  if (ORG_FIELDS.includes(name)) return 'organization';
  return 'variables';
}

/** Wire shape: variables list every merge field used, with the descriptions given. */
export function present(t: TemplateRow) {
  const given = new Map(t.variables.map((v) => [v.name, v.description ?? null]));
  const used = mergeFieldsIn(textsOf(t.subject_template, t.body_template_blocks));
  for (const v of t.variables) if (!used.includes(v.name)) used.push(v.name);
  return {
    id: t.id, key: t.key, tenant_id: t.organization_id, name: t.name, channel: t.channel,
    subject_template: t.subject_template, body_template: bodyTemplateText(t.body_template_blocks), body_template_blocks: fullBlocks(t.body_template_blocks),
    status: t.status, variables: used.map((name) => ({ name, description: given.get(name) ?? null, source: sourceOf(name) })),
    metadata: t.metadata, version: t.version, created_at: t.created_at, updated_at: t.updated_at,
  };
}

export async function templateById(q: Queryable, orgId: string, id: string, lock = false) {
  return (await q.query<TemplateRow>(`SELECT ${COLS} FROM comm_templates WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [orgId, id]))[0] ?? null;
}

export async function listTemplates(q: Queryable, orgId: string, f: { status?: string; limit: number; offset: number }) {
  return q.query<TemplateRow>(
    `SELECT ${COLS} FROM comm_templates WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
      ORDER BY lower(coalesce(nullif(name, ''), key)), coalesce(nullif(name, ''), key), id LIMIT $3 OFFSET $4`,
    [orgId, f.status ?? null, f.limit + 1, f.offset],
  );
}

export interface TemplateInput {
  key?: string; name?: string | null; subject_template?: string; body_template?: string; body_template_blocks?: Block[];
  variables?: { name: string; description?: string | null }[]; metadata?: Record<string, string | number | boolean | null>; status?: 'active' | 'draft' | 'archived'; channel?: 'email';
}

/** `current`: the stored body; its own text form sent back unchanged keeps it as it is (headings, lists and styles included). */
function checkInput(b: TemplateInput, creating: boolean, current?: Block[]): { blocks?: Block[] } {
  const errors: Record<string, string[]> = {};
  if (b.key !== undefined && !KEY_PATTERN.test(b.key)) errors.key = ['must start with a lowercase letter and hold only a-z, 0-9, _, . and -'];
  if (b.body_template !== undefined && b.body_template_blocks !== undefined) errors.body_template = ['send body_template or body_template_blocks, not both'];
  let blocks = b.body_template_blocks;
  if (blocks === undefined && b.body_template !== undefined && current && b.body_template.trim() === bodyTemplateText(current)) blocks = current;
  else if (blocks === undefined && b.body_template !== undefined) {
    blocks = blocksFromText(b.body_template);
    if (blocks.length > 200) errors.body_template = ['must have at most 200 paragraphs'];
  }
  if (blocks) Object.assign(errors, checkBlocks(blocks));
  if (creating && !blocks) errors.body_template_blocks = ['is required (or send body_template)'];
  const names = (b.variables ?? []).map((v) => v.name);
  if (new Set(names).size !== names.length) errors.variables = ['must not name a variable twice'];
  const cat = b.metadata?.category;
  if (cat !== undefined && cat !== null && !(CATEGORIES as readonly unknown[]).includes(cat)) errors['metadata.category'] = [`must be one of: ${CATEGORIES.join(', ')}`];
  if (Object.keys(errors).length) throw invalid(errors);
  return { blocks: blocks && fullBlocks(blocks) };
}

export async function createTemplate(q: Queryable, orgId: string, actor: string, b: TemplateInput & { key: string; subject_template: string }) {
  const { blocks } = checkInput(b, true);
  const body = blocks ?? [];
  const status = b.status ?? 'draft';
  const id = newId('tpl');
  const rows = await q.query<TemplateRow>(
    `INSERT INTO comm_templates (organization_id, id, key, name, subject_template, body_template_blocks, variables, metadata, status, version_published)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (organization_id, key) DO NOTHING RETURNING ${COLS}`,
    [orgId, id, b.key, b.name ?? null, b.subject_template, JSON.stringify(body), JSON.stringify(b.variables ?? []), JSON.stringify(b.metadata ?? {}), status, status === 'active'],
  );
  const row = rows[0];
  if (!row) throw invalid({ key: [`a template with key ${b.key} already exists`] });
  await q.query('INSERT INTO comm_template_versions (organization_id, template_id, version, subject_template, body_template_blocks) VALUES ($1,$2,1,$3,$4)', [orgId, id, b.subject_template, JSON.stringify(body)]);
  await audit(q, orgId, actor, 'create', 'message_template', id, { key: b.key, status });
  return row;
}

/** Editing the wording of a version that has been active makes a new version; drafts change in place. */
export async function updateTemplate(q: Queryable, orgId: string, actor: string, id: string, b: TemplateInput) {
  const cur = await templateById(q, orgId, id, true);
  if (!cur) throw notFound('template');
  if (b.key !== undefined && b.key !== cur.key) throw invalid({ key: ['cannot be changed'] });
  const { blocks } = checkInput(b, false, cur.body_template_blocks);
  const subject = b.subject_template ?? cur.subject_template;
  const body = blocks ?? cur.body_template_blocks;
  const wordingChanged = subject !== cur.subject_template || JSON.stringify(fullBlocks(body)) !== JSON.stringify(fullBlocks(cur.body_template_blocks));
  let version = cur.version;
  let published = cur.version_published;
  if (wordingChanged) {
    if (cur.version_published || cur.status === 'active') {
      version += 1;
      published = cur.status === 'active';
      await q.query('INSERT INTO comm_template_versions (organization_id, template_id, version, subject_template, body_template_blocks) VALUES ($1,$2,$3,$4,$5)', [orgId, id, version, subject, JSON.stringify(body)]);
    } else {
      await q.query('UPDATE comm_template_versions SET subject_template = $4, body_template_blocks = $5 WHERE organization_id = $1 AND template_id = $2 AND version = $3', [orgId, id, version, subject, JSON.stringify(body)]);
    }
  }
  const rows = await q.query<TemplateRow>(
    `UPDATE comm_templates SET name = $3, subject_template = $4, body_template_blocks = $5, variables = $6, metadata = $7, version = $8, version_published = $9, updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, b.name !== undefined ? b.name : cur.name, subject, JSON.stringify(body), JSON.stringify(b.variables ?? cur.variables), JSON.stringify(b.metadata ?? cur.metadata), version, published],
  );
  await audit(q, orgId, actor, 'update', 'message_template', id, { fields: Object.keys(b), version });
  return rows[0];
}

export async function setTemplateStatus(q: Queryable, orgId: string, actor: string, id: string, status: 'active' | 'draft' | 'archived') {
  const cur = await templateById(q, orgId, id, true);
  if (!cur) throw notFound('template');
  const rows = await q.query<TemplateRow>(
    `UPDATE comm_templates SET status = $3, version_published = version_published OR $3 = 'active', updated_at = CASE WHEN status = $3 THEN updated_at ELSE now() END
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, status],
  );
  if (cur.status !== status) await audit(q, orgId, actor, status === 'active' ? 'activate' : status === 'draft' ? 'draft' : 'archive', 'message_template', id, { from: cur.status, to: status });
  return rows[0];
}
