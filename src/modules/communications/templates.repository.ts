import type { Queryable } from '../../platform/db/db.ts';
import type { Block } from './blocks.ts';
import type { Static } from '../../platform/schema.ts';
import type { Template } from './schemas.ts';

/**
 * A template as stored: the wire shape's own fields, with the blocks as written, the name null when none, and
 * whether the current version has been active (the plain-text body and the organization id are derived).
 */
export type TemplateRow = Pick<
  Static<typeof Template>,
  'id' | 'key' | 'channel' | 'subject_template' | 'status' | 'version' | 'metadata' | 'created_at' | 'updated_at'
> & {
  organization_id: string;
  name: string | null;
  body_template_blocks: Block[];
  variables: { name: string; description: string | null }[];
  version_published: boolean;
};
const COLS =
  'organization_id, id, key, name, channel, subject_template, body_template_blocks, variables, metadata, status, version, ' +
  'version_published, created_at, updated_at';

export async function templateById(q: Queryable, orgId: string, id: string, lock = false) {
  return (
    (
      await q.query<TemplateRow>(`SELECT ${COLS} FROM comm_templates WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [
        orgId,
        id,
      ])
    )[0] ?? null
  );
}

export async function listTemplates(q: Queryable, orgId: string, f: { status?: string; limit: number; offset: number }) {
  return q.query<TemplateRow>(
    `SELECT ${COLS} FROM comm_templates WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
      ORDER BY lower(coalesce(nullif(name, ''), key)), coalesce(nullif(name, ''), key), id LIMIT $3 OFFSET $4`,
    [orgId, f.status ?? null, f.limit + 1, f.offset],
  );
}

export interface TemplateValues {
  name: string | null;
  subject_template: string;
  body_template_blocks: Block[];
  variables: { name: string; description?: string | null }[];
  metadata: Record<string, string | number | boolean | null>;
}

/** The new template, or null when its key is taken. */
export async function insertTemplate(
  q: Queryable,
  orgId: string,
  id: string,
  key: string,
  v: TemplateValues,
  status: string,
): Promise<TemplateRow | null> {
  const rows = await q.query<TemplateRow>(
    `INSERT INTO comm_templates (organization_id, id, key, name, subject_template, body_template_blocks, variables, metadata,
      status, version_published)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (organization_id, key) DO NOTHING RETURNING ${COLS}`,
    [
      orgId,
      id,
      key,
      v.name,
      v.subject_template,
      JSON.stringify(v.body_template_blocks),
      JSON.stringify(v.variables),
      JSON.stringify(v.metadata),
      status,
      status === 'active',
    ],
  );
  return rows[0] ?? null;
}

export async function insertVersion(q: Queryable, orgId: string, templateId: string, version: number, subject: string, body: Block[]) {
  await q.query(
    'INSERT INTO comm_template_versions (organization_id, template_id, version, subject_template, body_template_blocks) VALUES ' +
      '($1,$2,$3,$4,$5)',
    [orgId, templateId, version, subject, JSON.stringify(body)],
  );
}

export async function rewriteVersion(q: Queryable, orgId: string, templateId: string, version: number, subject: string, body: Block[]) {
  await q.query(
    'UPDATE comm_template_versions SET subject_template = $4, body_template_blocks = $5 WHERE organization_id = $1 AND ' +
      'template_id = $2 AND version = $3',
    [orgId, templateId, version, subject, JSON.stringify(body)],
  );
}

export async function updateTemplate(
  q: Queryable,
  orgId: string,
  id: string,
  v: TemplateValues,
  version: number,
  published: boolean,
): Promise<TemplateRow | null> {
  const rows = await q.query<TemplateRow>(
    `UPDATE comm_templates SET name = $3, subject_template = $4, body_template_blocks = $5, variables = $6, metadata = $7,
      version = $8, version_published = $9, updated_at = now()
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [
      orgId,
      id,
      v.name,
      v.subject_template,
      JSON.stringify(v.body_template_blocks),
      JSON.stringify(v.variables),
      JSON.stringify(v.metadata),
      version,
      published,
    ],
  );
  return rows[0] ?? null;
}

/** Sets the status; its time changes only when the status does. */
export async function setStatus(q: Queryable, orgId: string, id: string, status: string): Promise<TemplateRow | null> {
  const rows = await q.query<TemplateRow>(
    `UPDATE comm_templates SET status = $3, version_published = version_published OR $3 = 'active', updated_at = CASE WHEN
      status = $3 THEN updated_at ELSE now() END
      WHERE organization_id = $1 AND id = $2 RETURNING ${COLS}`,
    [orgId, id, status],
  );
  return rows[0] ?? null;
}
