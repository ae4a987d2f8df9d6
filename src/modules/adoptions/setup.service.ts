import type { Static } from '@sinclair/typebox';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { getTemplate } from '../communications/public.ts';
import { checkSchedule } from './fees.ts';
import { ensureDefaults } from './applications.service.ts';
import {
  CARD_FIELDS,
  type AdoptionSettingsPatch,
  type CageCardTemplateCreate,
  type CageCardTemplatePatch,
  type CageCardTemplateT,
  type FeeRuleT,
  type FeeScheduleCreate,
  type FeeSchedulePatch,
  type PromotionT,
} from './schemas.ts';

// Fee schedules

/** The fee schedules of an organization as answered (rules and promotions as the schemas checked them when written). */
const scheduleRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('adoption_fee_schedules')
    .select(['id', 'name', 'active', 'rules', 'promotions', 'created_at', 'updated_at'])
    .where('organization_id', '=', orgId)
    .$narrowType<{ rules: FeeRuleT[]; promotions: PromotionT[] }>();
type ScheduleRead = Awaited<ReturnType<ReturnType<typeof scheduleRows>['executeTakeFirstOrThrow']>>;
const withCurrency = (r: ScheduleRead, currency: string) => ({ ...r, currency });

/** Serializes the writes to an organization's fee schedules (one active schedule at a time). */
const lockSchedules = (q: Queryable, orgId: string) =>
  sql`SELECT pg_advisory_xact_lock(hashtext('adoption_fee_schedules:' || ${orgId}))`.execute(kx(q));

export async function scheduleById(q: Queryable, org: { id: string; currency: string }, id: string) {
  const r = await scheduleRows(q, org.id).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('fee schedule');
  return withCurrency(r, org.currency);
}
export async function listSchedules(q: Queryable, org: { id: string; currency: string }, limit: number, offset: number) {
  const rows = await scheduleRows(q, org.id)
    .orderBy('active', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return { results: rows.slice(0, limit).map((r) => withCurrency(r, org.currency)), limit, offset, has_more: rows.length > limit };
}
/** Activating a schedule deactivates the one in force (one active schedule per organization, kept by a unique index). */
export async function createSchedule(db: Db, org: { id: string; currency: string }, b: Static<typeof FeeScheduleCreate>, actor: string) {
  const errors = checkSchedule(b.rules, b.promotions);
  if (Object.keys(errors).length) throw invalid(errors);
  const id = newId('fee');
  return db.tx(async (q) => {
    await lockSchedules(q, org.id);
    const active = b.active ?? true;
    if (active)
      await kx(q)
        .updateTable('adoption_fee_schedules')
        .set({ active: false, updated_at: sql`now()` })
        .where('organization_id', '=', org.id)
        .where('active', '=', true)
        .execute();
    await kx(q)
      .insertInto('adoption_fee_schedules')
      .values({
        organization_id: org.id,
        id,
        name: b.name,
        active,
        rules: JSON.stringify(b.rules),
        promotions: JSON.stringify(b.promotions ?? []),
      })
      .execute();
    await audit(q, org.id, actor, 'create', 'fee_schedule', id, b);
    return scheduleById(q, org, id);
  });
}
export async function patchSchedule(
  db: Db,
  org: { id: string; currency: string },
  id: string,
  b: Static<typeof FeeSchedulePatch>,
  actor: string,
) {
  const errors = checkSchedule(b.rules, b.promotions);
  if (Object.keys(errors).length) throw invalid(errors);
  return db.tx(async (q) => {
    await lockSchedules(q, org.id);
    await scheduleById(q, org, id);
    if (b.active)
      await kx(q)
        .updateTable('adoption_fee_schedules')
        .set({ active: false, updated_at: sql`now()` })
        .where('organization_id', '=', org.id)
        .where('active', '=', true)
        .where('id', '<>', id)
        .execute();
    // an absent field keeps its value (Kysely leaves undefined values out of SET)
    await kx(q)
      .updateTable('adoption_fee_schedules')
      .set({
        name: b.name,
        active: b.active,
        rules: b.rules ? JSON.stringify(b.rules) : undefined,
        promotions: b.promotions ? JSON.stringify(b.promotions) : undefined,
        updated_at: sql`now()`,
      })
      .where('organization_id', '=', org.id)
      .where('id', '=', id)
      .execute();
    await audit(q, org.id, actor, 'update', 'fee_schedule', id, b);
    return scheduleById(q, org, id);
  });
}
/** Adoptions keep the rule name and amount they were given, so a schedule can be deleted at any time. */
export async function deleteSchedule(db: Db, org: { id: string; currency: string }, id: string, actor: string) {
  await db.tx(async (q) => {
    await scheduleById(q, org, id);
    await kx(q).deleteFrom('adoption_fee_schedules').where('organization_id', '=', org.id).where('id', '=', id).execute();
    await audit(q, org.id, actor, 'delete', 'fee_schedule', id, {});
  });
}

// Settings

export async function getSettings(db: Db, orgId: string) {
  await ensureDefaults(db, orgId);
  const r = await kx(db)
    .selectFrom('adoption_settings')
    .select(['return_window_days', 'closed_template_id'])
    .where('organization_id', '=', orgId)
    .$narrowType<{ return_window_days: Record<string, number> }>()
    .executeTakeFirst();
  return r ?? { return_window_days: { dog: 30, cat: 7, '*': 14 }, closed_template_id: null };
}
export async function patchSettings(db: Db, orgId: string, b: Static<typeof AdoptionSettingsPatch>, actor: string) {
  await ensureDefaults(db, orgId);
  await db.tx(async (q) => {
    if (b.closed_template_id) {
      const t = await getTemplate(q, orgId, b.closed_template_id).catch(() => null);
      if (!t) throw invalid({ closed_template_id: ['names no message template'] });
    }
    // an absent field keeps its value (Kysely leaves undefined values out of SET); closed_template_id null clears it
    await kx(q)
      .updateTable('adoption_settings')
      .set({
        return_window_days: b.return_window_days ? JSON.stringify(b.return_window_days) : undefined,
        closed_template_id: b.closed_template_id,
        updated_at: sql`now()`,
      })
      .where('organization_id', '=', orgId)
      .execute();
    await audit(q, orgId, actor, 'update', 'adoption_settings', orgId, b);
  });
  return getSettings(db, orgId);
}

// Cage card templates

const DEFAULT_FIELDS: CageCardTemplateT['fields'] = ['name', 'species', 'breed', 'sex', 'age', 'microchip', 'intake_date', 'description'];
/** The cage card templates of an organization as answered (size and fields narrowed to what the table's checks allow). */
const cardTemplateRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('cage_card_templates')
    .select(['id', 'name', 'size', 'fields', 'show_qr', 'created_at', 'updated_at'])
    .where('organization_id', '=', orgId)
    .$narrowType<Pick<CageCardTemplateT, 'size' | 'fields'>>();

export async function cardTemplateById(q: Queryable, orgId: string, id: string): Promise<CageCardTemplateT> {
  const r = await cardTemplateRows(q, orgId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('cage card template');
  return r;
}
export async function listCardTemplates(q: Queryable, orgId: string, limit: number, offset: number) {
  const rows = await cardTemplateRows(q, orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return { results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit };
}
/** Fields keep the order of CARD_FIELDS on the card, whatever order they were sent in. */
const ordered = (fields: readonly string[]) => CARD_FIELDS.filter((f) => fields.includes(f));
export async function createCardTemplate(db: Db, orgId: string, b: Static<typeof CageCardTemplateCreate>, actor: string) {
  const id = newId('cct');
  return db.tx(async (q) => {
    await kx(q)
      .insertInto('cage_card_templates')
      .values({
        organization_id: orgId,
        id,
        name: b.name,
        size: b.size ?? 'letter',
        fields: ordered(b.fields ?? DEFAULT_FIELDS),
        show_qr: b.show_qr ?? true,
      })
      .execute();
    await audit(q, orgId, actor, 'create', 'cage_card_template', id, b);
    return cardTemplateById(q, orgId, id);
  });
}
export async function patchCardTemplate(db: Db, orgId: string, id: string, b: Static<typeof CageCardTemplatePatch>, actor: string) {
  return db.tx(async (q) => {
    await cardTemplateById(q, orgId, id);
    // an absent field keeps its value (Kysely leaves undefined values out of SET)
    await kx(q)
      .updateTable('cage_card_templates')
      .set({
        name: b.name,
        size: b.size,
        fields: b.fields ? ordered(b.fields) : undefined,
        show_qr: b.show_qr,
        updated_at: sql`now()`,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await audit(q, orgId, actor, 'update', 'cage_card_template', id, b);
    return cardTemplateById(q, orgId, id);
  });
}
export async function deleteCardTemplate(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await cardTemplateById(q, orgId, id);
    await kx(q).deleteFrom('cage_card_templates').where('organization_id', '=', orgId).where('id', '=', id).execute();
    await audit(q, orgId, actor, 'delete', 'cage_card_template', id, {});
  });
}
