import type { Queryable } from '../../platform/db/db.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import type { Block } from './blocks.ts';
import type { Static } from '../../platform/schema.ts';
import type { Template } from './schemas.ts';

/**
 * A template as stored: the wire shape's own fields, with the blocks as written, the name null when none, and
 * whether the current version has been active (the plain-text body and the organization id are derived).
 */
const toTemplate = (r: Selectable<DB['comm_templates']>) => ({
  ...r,
  channel: r.channel as Static<typeof Template>['channel'],
  status: r.status as Static<typeof Template>['status'],
  body_template_blocks: r.body_template_blocks as unknown as Block[],
  variables: r.variables as { name: string; description: string | null }[],
  metadata: r.metadata as Static<typeof Template>['metadata'],
});
export type TemplateRow = ReturnType<typeof toTemplate>;

export async function templateById(q: Queryable, orgId: string, id: string, lock = false): Promise<TemplateRow | null> {
  let one = kx(q).selectFrom('comm_templates').selectAll().where('organization_id', '=', orgId).where('id', '=', id);
  if (lock) one = one.forUpdate();
  const row = await one.executeTakeFirst();
  return row ? toTemplate(row) : null;
}

export async function listTemplates(
  q: Queryable,
  orgId: string,
  f: { status?: string; limit: number; offset: number },
): Promise<TemplateRow[]> {
  let list = kx(q).selectFrom('comm_templates').selectAll().where('organization_id', '=', orgId);
  if (f.status !== undefined) list = list.where('status', '=', f.status);
  const rows = await list
    .orderBy(sql`lower(coalesce(nullif(name, ''), key))`)
    .orderBy(sql`coalesce(nullif(name, ''), key)`)
    .orderBy('id')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return rows.map(toTemplate);
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
  const row = await kx(q)
    .insertInto('comm_templates')
    .values({
      organization_id: orgId,
      id,
      key,
      name: v.name,
      subject_template: v.subject_template,
      body_template_blocks: JSON.stringify(v.body_template_blocks),
      variables: JSON.stringify(v.variables),
      metadata: JSON.stringify(v.metadata),
      status,
      version_published: status === 'active',
    })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toTemplate(row) : null;
}

export async function insertVersion(q: Queryable, orgId: string, templateId: string, version: number, subject: string, body: Block[]) {
  await kx(q)
    .insertInto('comm_template_versions')
    .values({
      organization_id: orgId,
      template_id: templateId,
      version,
      subject_template: subject,
      body_template_blocks: JSON.stringify(body),
    })
    .execute();
}

export async function rewriteVersion(q: Queryable, orgId: string, templateId: string, version: number, subject: string, body: Block[]) {
  await kx(q)
    .updateTable('comm_template_versions')
    .set({ subject_template: subject, body_template_blocks: JSON.stringify(body) })
    .where('organization_id', '=', orgId)
    .where('template_id', '=', templateId)
    .where('version', '=', version)
    .execute();
}

export async function updateTemplate(
  q: Queryable,
  orgId: string,
  id: string,
  v: TemplateValues,
  version: number,
  published: boolean,
): Promise<TemplateRow | null> {
  const row = await kx(q)
    .updateTable('comm_templates')
    .set({
      name: v.name,
      subject_template: v.subject_template,
      body_template_blocks: JSON.stringify(v.body_template_blocks),
      variables: JSON.stringify(v.variables),
      metadata: JSON.stringify(v.metadata),
      version,
      version_published: published,
      updated_at: sql`now()`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toTemplate(row) : null;
}

/** Sets the status; its time changes only when the status does. */
export async function setStatus(q: Queryable, orgId: string, id: string, status: string): Promise<TemplateRow | null> {
  const row = await kx(q)
    .updateTable('comm_templates')
    .set({
      status,
      version_published: sql`version_published OR ${status}::text = 'active'`,
      updated_at: sql`CASE WHEN status = ${status} THEN updated_at ELSE now() END`,
    })
    .where('organization_id', '=', orgId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toTemplate(row) : null;
}
