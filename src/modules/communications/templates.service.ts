import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import * as repo from './templates.repository.ts';
import type { TemplateRow } from './templates.repository.ts';
import { pageB } from '../../platform/pagination.ts';
import { fillTemplate } from './fill.ts';
import type { FillBodyT } from './schemas.ts';
import { newId } from '../../platform/ids.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { type Block, blocksFromText, bodyTemplateText, checkBlocks, fullBlocks, mergeFieldsIn, textsOf } from './blocks.ts';
import { CATEGORIES } from './schemas.ts';

export const KEY_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const PERSON_FIELDS = ['first_name', 'last_name', 'full_name', 'email', 'phone'];
export const ANIMAL_FIELDS = ['animal_name', 'animal_species', 'animal_breed', 'animal_sex', 'animal_id'];
export const ORG_FIELDS = ['org_name'];

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
    id: t.id,
    key: t.key,
    tenant_id: t.organization_id,
    name: t.name,
    channel: t.channel,
    subject_template: t.subject_template,
    body_template: bodyTemplateText(t.body_template_blocks),
    body_template_blocks: fullBlocks(t.body_template_blocks),
    status: t.status,
    variables: used.map((name) => ({ name, description: given.get(name) ?? null, source: sourceOf(name) })),
    metadata: t.metadata,
    version: t.version,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

export interface TemplateInput {
  key?: string;
  name?: string | null;
  subject_template?: string;
  body_template?: string;
  body_template_blocks?: Block[];
  variables?: { name: string; description?: string | null }[];
  metadata?: Record<string, string | number | boolean | null>;
  status?: 'active' | 'draft' | 'archived';
  channel?: 'email';
}

/** `current`: the stored body; its own text form sent back unchanged keeps it as it is (headings, lists and styles included). */
function checkInput(b: TemplateInput, creating: boolean, current?: Block[]): { blocks?: Block[] } {
  const errors: Record<string, string[]> = {};
  if (b.key !== undefined && !KEY_PATTERN.test(b.key))
    errors.key = ['must start with a lowercase letter and hold only a-z, 0-9, _, . and -'];
  if (b.body_template !== undefined && b.body_template_blocks !== undefined)
    errors.body_template = ['send body_template or body_template_blocks, not both'];
  let blocks = b.body_template_blocks;
  if (blocks === undefined && b.body_template !== undefined && current && b.body_template.trim() === bodyTemplateText(current))
    blocks = current;
  else if (blocks === undefined && b.body_template !== undefined) {
    blocks = blocksFromText(b.body_template);
    if (blocks.length > 200) errors.body_template = ['must have at most 200 paragraphs'];
  }
  if (blocks) Object.assign(errors, checkBlocks(blocks));
  if (creating && !blocks) errors.body_template_blocks = ['is required (or send body_template)'];
  const names = (b.variables ?? []).map((v) => v.name);
  if (new Set(names).size !== names.length) errors.variables = ['must not name a variable twice'];
  const cat = b.metadata?.category;
  if (cat !== undefined && cat !== null && !(CATEGORIES as readonly unknown[]).includes(cat))
    errors['metadata.category'] = [`must be one of: ${CATEGORIES.join(', ')}`];
  if (Object.keys(errors).length) throw invalid(errors);
  return { blocks: blocks && fullBlocks(blocks) };
}

export async function createTemplate(
  q: Queryable,
  orgId: string,
  actor: string,
  b: TemplateInput & { key: string; subject_template: string },
) {
  const { blocks } = checkInput(b, true);
  const body = blocks ?? [];
  const status = b.status ?? 'draft';
  const id = newId('tpl');
  const row = await repo.insertTemplate(
    q,
    orgId,
    id,
    b.key,
    {
      name: b.name ?? null,
      subject_template: b.subject_template,
      body_template_blocks: body,
      variables: b.variables ?? [],
      metadata: b.metadata ?? {},
    },
    status,
  );
  if (!row) throw invalid({ key: [`a template with key ${b.key} already exists`] });
  await repo.insertVersion(q, orgId, id, 1, b.subject_template, body);
  await audit(q, orgId, actor, 'create', 'message_template', id, { key: b.key, status });
  return row;
}

/** Editing the wording of a version that has been active makes a new version; drafts change in place. */
export async function updateTemplate(q: Queryable, orgId: string, actor: string, id: string, b: TemplateInput) {
  const cur = await repo.templateById(q, orgId, id, true);
  if (!cur) throw notFound('template');
  if (b.key !== undefined && b.key !== cur.key) throw invalid({ key: ['cannot be changed'] });
  const { blocks } = checkInput(b, false, cur.body_template_blocks);
  const subject = b.subject_template ?? cur.subject_template;
  const body = blocks ?? cur.body_template_blocks;
  const wordingChanged =
    subject !== cur.subject_template || JSON.stringify(fullBlocks(body)) !== JSON.stringify(fullBlocks(cur.body_template_blocks));
  let version = cur.version;
  let published = cur.version_published;
  if (wordingChanged) {
    if (cur.version_published || cur.status === 'active') {
      version += 1;
      published = cur.status === 'active';
      await repo.insertVersion(q, orgId, id, version, subject, body);
    } else {
      await repo.rewriteVersion(q, orgId, id, version, subject, body);
    }
  }
  const row = await repo.updateTemplate(
    q,
    orgId,
    id,
    {
      name: b.name !== undefined ? b.name : cur.name,
      subject_template: subject,
      body_template_blocks: body,
      variables: b.variables ?? cur.variables,
      metadata: b.metadata ?? cur.metadata,
    },
    version,
    published,
  );
  if (!row) throw notFound('template');
  await audit(q, orgId, actor, 'update', 'message_template', id, { fields: Object.keys(b), version });
  return row;
}

export async function setTemplateStatus(q: Queryable, orgId: string, actor: string, id: string, status: 'active' | 'draft' | 'archived') {
  const cur = await repo.templateById(q, orgId, id, true);
  if (!cur) throw notFound('template');
  const row = await repo.setStatus(q, orgId, id, status);
  if (!row) throw notFound('template');
  if (cur.status !== status)
    await audit(q, orgId, actor, status === 'active' ? 'activate' : status === 'draft' ? 'draft' : 'archive', 'message_template', id, {
      from: cur.status,
      to: status,
    });
  return row;
}

export async function getTemplate(q: Queryable, orgId: string, id: string): Promise<TemplateRow> {
  const row = await repo.templateById(q, orgId, id);
  if (!row) throw notFound('template');
  return row;
}

export async function listTemplates(db: Queryable, orgId: string, f: { status?: string; limit: number; offset: number }) {
  const page = pageB(await repo.listTemplates(db, orgId, f), f.limit, f.offset);
  return { ...page, results: page.results.map(present) };
}

/** POST /templates, PATCH, and the status changes: each one transaction with its audit row. */
export const addTemplate = (db: Db, orgId: string, actor: string, b: TemplateInput & { key: string; subject_template: string }) =>
  db.tx((q) => createTemplate(q, orgId, actor, b));
export const changeTemplate = (db: Db, orgId: string, actor: string, id: string, b: TemplateInput) =>
  db.tx((q) => updateTemplate(q, orgId, actor, id, b));
export const changeTemplateStatus = (db: Db, orgId: string, actor: string, id: string, status: 'active' | 'draft' | 'archived') =>
  db.tx((q) => setTemplateStatus(q, orgId, actor, id, status));

/** Fills an active template from records; changes nothing. */
export async function fill(db: Queryable, org: Organization, id: string, body: FillBodyT) {
  return fillTemplate(db, org, await getTemplate(db, org.id, id), body);
}
