import type { Static } from '@sinclair/typebox';
import type { Db, Queryable } from '../../platform/db/db.ts';
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

interface ScheduleRow {
  id: string;
  name: string;
  active: boolean;
  rules: FeeRuleT[];
  promotions: PromotionT[];
  created_at: Date;
  updated_at: Date;
}
const S_COLS = 'id, name, active, rules, promotions, created_at, updated_at';
const withCurrency = (r: ScheduleRow, currency: string) => ({ ...r, currency });

export async function scheduleById(q: Queryable, org: { id: string; currency: string }, id: string) {
  const r = (
    await q.query<ScheduleRow>(`SELECT ${S_COLS} FROM adoption_fee_schedules WHERE organization_id = $1 AND id = $2`, [org.id, id])
  )[0];
  if (!r) throw notFound('fee schedule');
  return withCurrency(r, org.currency);
}
export async function listSchedules(q: Queryable, org: { id: string; currency: string }, limit: number, offset: number) {
  const rows = await q.query<ScheduleRow>(
    `SELECT ${S_COLS} FROM adoption_fee_schedules WHERE organization_id = $1 ORDER BY active DESC, created_at
      DESC, id DESC LIMIT $2 OFFSET $3`,
    [org.id, limit + 1, offset],
  );
  return { results: rows.slice(0, limit).map((r) => withCurrency(r, org.currency)), limit, offset, has_more: rows.length > limit };
}
/** Activating a schedule deactivates the one in force (one active schedule per organization, kept by a unique index). */
export async function createSchedule(db: Db, org: { id: string; currency: string }, b: Static<typeof FeeScheduleCreate>, actor: string) {
  const errors = checkSchedule(b.rules, b.promotions);
  if (Object.keys(errors).length) throw invalid(errors);
  const id = newId('fee');
  return db.tx(async (q) => {
    await q.query("SELECT pg_advisory_xact_lock(hashtext('adoption_fee_schedules:' || $1))", [org.id]);
    const active = b.active ?? true;
    if (active)
      await q.query('UPDATE adoption_fee_schedules SET active = false, updated_at = now() WHERE organization_id = $1 AND active', [org.id]);
    await q.query(
      'INSERT INTO adoption_fee_schedules (organization_id, id, name, active, rules, promotions) VALUES ($1, $2, $3, $4, $5, $6)',
      [org.id, id, b.name, active, JSON.stringify(b.rules), JSON.stringify(b.promotions ?? [])],
    );
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
    await q.query("SELECT pg_advisory_xact_lock(hashtext('adoption_fee_schedules:' || $1))", [org.id]);
    await scheduleById(q, org, id);
    if (b.active)
      await q.query(
        'UPDATE adoption_fee_schedules SET active = false, updated_at = now() WHERE organization_id = $1 AND active AND id <> $2',
        [org.id, id],
      );
    await q.query(
      `UPDATE adoption_fee_schedules SET name = coalesce($3, name), active = coalesce($4, active), rules = coalesce($5::jsonb, rules),
         promotions = coalesce($6::jsonb, promotions), updated_at = now() WHERE organization_id = $1 AND id = $2`,
      [
        org.id,
        id,
        b.name ?? null,
        b.active ?? null,
        b.rules ? JSON.stringify(b.rules) : null,
        b.promotions ? JSON.stringify(b.promotions) : null,
      ],
    );
    await audit(q, org.id, actor, 'update', 'fee_schedule', id, b);
    return scheduleById(q, org, id);
  });
}
/** Adoptions keep the rule name and amount they were given, so a schedule can be deleted at any time. */
export async function deleteSchedule(db: Db, org: { id: string; currency: string }, id: string, actor: string) {
  await db.tx(async (q) => {
    await scheduleById(q, org, id);
    await q.query('DELETE FROM adoption_fee_schedules WHERE organization_id = $1 AND id = $2', [org.id, id]);
    await audit(q, org.id, actor, 'delete', 'fee_schedule', id, {});
  });
}

// Settings

export async function getSettings(db: Db, orgId: string) {
  await ensureDefaults(db, orgId);
  const r = (
    await db.query<{ return_window_days: Record<string, number>; closed_template_id: string | null }>(
      'SELECT return_window_days, closed_template_id FROM adoption_settings WHERE organization_id = $1',
      [orgId],
    )
  )[0];
  return r ?? { return_window_days: { dog: 30, cat: 7, '*': 14 }, closed_template_id: null };
}
export async function patchSettings(db: Db, orgId: string, b: Static<typeof AdoptionSettingsPatch>, actor: string) {
  await ensureDefaults(db, orgId);
  await db.tx(async (q) => {
    if (b.closed_template_id) {
      const t = await getTemplate(q, orgId, b.closed_template_id).catch(() => null);
      if (!t) throw invalid({ closed_template_id: ['names no message template'] });
    }
    await q.query(
      `UPDATE adoption_settings SET return_window_days = coalesce($2::jsonb, return_window_days),
         closed_template_id = CASE WHEN $3 THEN $4 ELSE closed_template_id END, updated_at = now() WHERE organization_id = $1`,
      [
        orgId,
        b.return_window_days ? JSON.stringify(b.return_window_days) : null,
        b.closed_template_id !== undefined,
        b.closed_template_id ?? null,
      ],
    );
    await audit(q, orgId, actor, 'update', 'adoption_settings', orgId, b);
  });
  return getSettings(db, orgId);
}

// Cage card templates

const DEFAULT_FIELDS: CageCardTemplateT['fields'] = ['name', 'species', 'breed', 'sex', 'age', 'microchip', 'intake_date', 'description'];
const CC_COLS = 'id, name, size, fields, show_qr, created_at, updated_at';

export async function cardTemplateById(q: Queryable, orgId: string, id: string): Promise<CageCardTemplateT> {
  const r = (
    await q.query<CageCardTemplateT>(`SELECT ${CC_COLS} FROM cage_card_templates WHERE organization_id = $1 AND id = $2`, [orgId, id])
  )[0];
  if (!r) throw notFound('cage card template');
  return r;
}
export async function listCardTemplates(q: Queryable, orgId: string, limit: number, offset: number) {
  const rows = await q.query<CageCardTemplateT>(
    `SELECT ${CC_COLS} FROM cage_card_templates WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [orgId, limit + 1, offset],
  );
  return { results: rows.slice(0, limit), limit, offset, has_more: rows.length > limit };
}
/** Fields keep the order of CARD_FIELDS on the card, whatever order they were sent in. */
const ordered = (fields: readonly string[]) => CARD_FIELDS.filter((f) => fields.includes(f));
export async function createCardTemplate(db: Db, orgId: string, b: Static<typeof CageCardTemplateCreate>, actor: string) {
  const id = newId('cct');
  return db.tx(async (q) => {
    await q.query('INSERT INTO cage_card_templates (organization_id, id, name, size, fields, show_qr) VALUES ($1, $2, $3, $4, $5, $6)', [
      orgId,
      id,
      b.name,
      b.size ?? 'letter',
      ordered(b.fields ?? DEFAULT_FIELDS),
      b.show_qr ?? true,
    ]);
    await audit(q, orgId, actor, 'create', 'cage_card_template', id, b);
    return cardTemplateById(q, orgId, id);
  });
}
export async function patchCardTemplate(db: Db, orgId: string, id: string, b: Static<typeof CageCardTemplatePatch>, actor: string) {
  return db.tx(async (q) => {
    await cardTemplateById(q, orgId, id);
    await q.query(
      `UPDATE cage_card_templates SET name = coalesce($3, name), size = coalesce($4, size), fields = coalesce($5, fields),
         show_qr = coalesce($6, show_qr), updated_at = now() WHERE organization_id = $1 AND id = $2`,
      [orgId, id, b.name ?? null, b.size ?? null, b.fields ? ordered(b.fields) : null, b.show_qr ?? null],
    );
    await audit(q, orgId, actor, 'update', 'cage_card_template', id, b);
    return cardTemplateById(q, orgId, id);
  });
}
export async function deleteCardTemplate(db: Db, orgId: string, id: string, actor: string) {
  await db.tx(async (q) => {
    await cardTemplateById(q, orgId, id);
    await q.query('DELETE FROM cage_card_templates WHERE organization_id = $1 AND id = $2', [orgId, id]);
    await audit(q, orgId, actor, 'delete', 'cage_card_template', id, {});
  });
}
