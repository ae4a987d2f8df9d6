/** A person's tags (the `tags` column of `people`, also written whole by the Family A PATCH) one at a time, and the tags in use. */
import { first, type Db, type Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { auditChanges } from '../../platform/audit.ts';
import { recordChange } from '../../platform/changes.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { pageB } from '../../platform/pagination.ts';
import { requireLivePerson } from './live.ts';

/** As many tags as the Family A person takes. */
export const MAX_PERSON_TAGS = 50;
/** A tag as written here: trimmed, inner white space collapsed to one space; its case is kept. */
export function tagText(raw: string, field = 'tag'): string {
  const t = raw.trim().replace(/\s+/g, ' ');
  if (!t) throw invalid({ [field]: ['must contain a letter or digit'] });
  return t;
}
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

async function tagsRow(q: Queryable, orgId: string, personId: string): Promise<string[]> {
  return first(await kx(q).selectFrom('people').select('tags').where('organization_id', '=', orgId).where('id', '=', personId).execute())
    .tags;
}

export async function tagsOf(q: Queryable, orgId: string, personId: string) {
  await requireLivePerson(q, orgId, personId);
  return { person_id: personId, tags: await tagsRow(q, orgId, personId) };
}

/** Locks the live person, applies `change` to the tags and, when they differ, writes them with the audit row and the change. */
async function changeTags(db: Db, orgId: string, personId: string, actor: string, change: (tags: string[]) => string[]) {
  return db.tx(async (q) => {
    await requireLivePerson(q, orgId, personId, true);
    const before = await tagsRow(q, orgId, personId);
    const after = change(before);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      await kx(q)
        .updateTable('people')
        .set({ tags: after, updated_at: sql`now()` })
        .where('organization_id', '=', orgId)
        .where('id', '=', personId)
        .execute();
      await auditChanges(q, orgId, actor, 'person', personId, { tags: before }, { tags: after });
      await recordChange(q, orgId, { event: 'person.updated', entity: 'person', id: personId, fields: { tags: after }, actor });
    }
    return { person_id: personId, tags: after };
  });
}

export async function addTag(db: Db, orgId: string, personId: string, raw: string, actor: string) {
  const tag = tagText(raw);
  return changeTags(db, orgId, personId, actor, (tags) => {
    if (tags.some((t) => same(t, tag))) return tags;
    if (tags.length >= MAX_PERSON_TAGS) throw invalid({ tag: [`a person carries at most ${MAX_PERSON_TAGS} tags`] });
    return [...tags, tag];
  });
}

export async function replaceTags(db: Db, orgId: string, personId: string, raw: string[], actor: string) {
  const tags: string[] = [];
  for (const r of raw) {
    const t = tagText(r, 'tags');
    if (!tags.some((x) => same(x, t))) tags.push(t);
  }
  return changeTags(db, orgId, personId, actor, () => tags);
}

export async function removeTag(db: Db, orgId: string, personId: string, raw: string, actor: string): Promise<void> {
  const tag = raw.trim().replace(/\s+/g, ' ');
  await changeTags(db, orgId, personId, actor, (tags) => {
    if (!tags.some((t) => same(t, tag))) throw notFound('tag');
    return tags.filter((t) => !same(t, tag));
  });
}

/** Tags carried by live people, compared without regard to case, most used first; each spelled as most people have it. */
export async function tagCounts(q: Queryable, orgId: string, limit: number, offset: number) {
  const r = await sql<{
    tag: string;
    people: number;
  }>`SELECT mode() WITHIN GROUP (ORDER BY t.tag) AS tag, count(DISTINCT p.id)::int AS people
       FROM people p CROSS JOIN LATERAL unnest(p.tags) AS t(tag)
      WHERE p.organization_id = ${orgId} AND p.deleted_at IS NULL
      GROUP BY lower(t.tag) ORDER BY people DESC, lower(t.tag) LIMIT ${limit} OFFSET ${offset}`.execute(kx(q));
  return r.rows;
}

/** Live people carrying a tag (without regard to case), newest first. */
export async function peopleByTag(q: Queryable, orgId: string, raw: string, limit: number, offset: number) {
  const tag = raw.trim().replace(/\s+/g, ' ');
  return kx(q)
    .selectFrom('people as p')
    .select(['p.id', 'p.first_name', 'p.last_name', sql<string>`btrim(p.first_name || ' ' || p.last_name)`.as('display_name'), 'p.email'])
    .where('p.organization_id', '=', orgId)
    .where('p.deleted_at', 'is', null)
    .where(sql<boolean>`EXISTS (SELECT 1 FROM unnest(p.tags) t WHERE lower(t) = lower(${tag}))`)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** GET /api/people/by-tag/{tag}: a page of the live people carrying a tag (`limit + 1` rows read); 404 when no live person carries it. */
export async function peopleByTagPage(q: Queryable, orgId: string, raw: string, limit: number, offset: number) {
  const rows = await peopleByTag(q, orgId, raw, limit + 1, offset);
  if (!rows.length && !(await peopleByTag(q, orgId, raw, 1, 0)).length) throw notFound('tag');
  return pageB(rows, limit, offset);
}
