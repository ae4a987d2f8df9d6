import type { Db, Queryable } from '../../platform/db/db.ts';
import type { Static } from '../../platform/schema.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { audit, auditChanges } from '../../platform/audit.ts';
import { seesContacts, type Grants } from '../../platform/permissions.ts';
import type { GrantCreate, PoliciesUpdate, QualificationCreate, QualificationUpdate, RoleCreate, RoleUpdate } from './schemas.ts';
import * as repo from './volunteers.repository.ts';
import { addDays, localDate } from './time.ts';

/** Volunteer roles, qualifications and their grants, booking policies. */

async function checkQualificationIds(q: Queryable, orgId: string, ids: string[]) {
  const found = new Set((await repo.qualificationsByIds(q, orgId, ids)).map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalid({ required_qualification_ids: [`names no qualification of this organization: ${unknown.join(', ')}`] });
}

/** A key without read on People sees a volunteer's name only: email "" and phone null. */
export function contactsFor<T extends { email: string; phone: string | null }>(grants: Grants, v: T): T {
  return seesContacts(grants) ? v : { ...v, email: '', phone: null };
}

// Roles

export function createRole(db: Db, orgId: string, actor: string, b: Static<typeof RoleCreate>) {
  return db.tx(async (q) => {
    const name = b.name.trim();
    if (!name) throw invalid({ name: ['must not be blank'] });
    if (await repo.roleByName(q, orgId, name)) throw invalid({ name: [`a volunteer role named ${name} already exists`] });
    const ids = b.required_qualification_ids ?? [];
    await checkQualificationIds(q, orgId, ids);
    const r = await repo.insertRole(q, orgId, { name, description: b.description ?? null, required_qualification_ids: ids });
    await audit(q, orgId, actor, 'create', 'volunteer_role', r.id, b);
    return r;
  });
}

export function updateRole(db: Db, orgId: string, actor: string, id: string, b: Static<typeof RoleUpdate>) {
  return db.tx(async (q) => {
    const cur = await repo.roleById(q, orgId, id);
    if (!cur) throw notFound('volunteer role');
    const name = b.name !== undefined ? b.name.trim() : cur.name;
    if (!name) throw invalid({ name: ['must not be blank'] });
    const same = await repo.roleByName(q, orgId, name);
    if (same && same.id !== cur.id) throw invalid({ name: [`a volunteer role named ${name} already exists`] });
    const ids = b.required_qualification_ids ?? cur.required_qualification_ids;
    await checkQualificationIds(q, orgId, ids);
    const r = await repo.updateRole(q, orgId, cur.id, {
      name,
      description: b.description !== undefined ? b.description : cur.description,
      required_qualification_ids: ids,
    });
    await auditChanges(q, orgId, actor, 'volunteer_role', cur.id, cur, r);
    return r ?? cur;
  });
}

/** Refused (422) while any shift window has the role. */
export async function deleteRole(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.roleById(q, orgId, id))) throw notFound('volunteer role');
    const n = await repo.windowsWithRole(q, orgId, id);
    if (n) throw invalid({ id: [`${n} shift window${n === 1 ? ' uses' : 's use'} this role`] });
    await repo.deleteRole(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'volunteer_role', id);
  });
}

// Qualifications

export function createQualification(db: Db, orgId: string, actor: string, b: Static<typeof QualificationCreate>) {
  return db.tx(async (q) => {
    const name = b.name.trim();
    if (!name) throw invalid({ name: ['must not be blank'] });
    if (await repo.qualificationByName(q, orgId, name)) throw invalid({ name: [`a qualification named ${name} already exists`] });
    const r = await repo.insertQualification(q, orgId, {
      name,
      description: b.description ?? null,
      validity_days: b.validity_days ?? null,
    });
    await audit(q, orgId, actor, 'create', 'volunteer_qualification', r.id, b);
    return r;
  });
}

export function updateQualification(db: Db, orgId: string, actor: string, id: string, b: Static<typeof QualificationUpdate>) {
  return db.tx(async (q) => {
    const cur = await repo.qualificationById(q, orgId, id);
    if (!cur) throw notFound('qualification');
    const name = b.name !== undefined ? b.name.trim() : cur.name;
    if (!name) throw invalid({ name: ['must not be blank'] });
    const same = await repo.qualificationByName(q, orgId, name);
    if (same && same.id !== cur.id) throw invalid({ name: [`a qualification named ${name} already exists`] });
    const r = await repo.updateQualification(q, orgId, cur.id, {
      name,
      description: b.description !== undefined ? b.description : cur.description,
      validity_days: b.validity_days !== undefined ? b.validity_days : cur.validity_days,
    });
    await auditChanges(q, orgId, actor, 'volunteer_qualification', cur.id, cur, r);
    return r ?? cur;
  });
}

/** Refused (422) while granted to anyone or required by a role. */
export async function deleteQualification(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.qualificationById(q, orgId, id))) throw notFound('qualification');
    const uses = await repo.qualificationUses(q, orgId, id);
    if (uses.grants || uses.roles)
      throw invalid({ id: [`the qualification is granted ${uses.grants} time(s) and required by ${uses.roles} role(s)`] });
    await repo.deleteQualification(q, orgId, id);
    await audit(q, orgId, actor, 'delete', 'volunteer_qualification', id);
  });
}

// Policies

/** Only sent fields change. */
export function updatePolicies(db: Db, orgId: string, actor: string, b: Static<typeof PoliciesUpdate>) {
  return db.tx(async (q) => {
    const cur = await repo.policies(q, orgId);
    const next = {
      min_notice_hours: b.min_notice_hours ?? cur.min_notice_hours,
      max_hours_per_week: b.max_hours_per_week !== undefined ? b.max_hours_per_week : cur.max_hours_per_week,
      cancellation_cutoff_hours: b.cancellation_cutoff_hours ?? cur.cancellation_cutoff_hours,
    };
    const r = await repo.savePolicies(q, orgId, next);
    await auditChanges(q, orgId, actor, 'shift_policies', orgId, cur, r);
    return r;
  });
}

// Volunteers and their qualification grants

export async function volunteerOr404(q: Queryable, orgId: string, id: string) {
  const v = await repo.volunteerById(q, orgId, id);
  if (!v) throw notFound('volunteer');
  return v;
}

function grantWire(g: repo.GrantRow, today: string) {
  return { ...g, valid_today: g.granted_on <= today && (g.expires_on === null || g.expires_on >= today) };
}

/** A volunteer's grants, each saying whether it is valid today (in the organization's zone). */
export async function grantsOf(db: Queryable, orgId: string, zone: string, personId: string) {
  await volunteerOr404(db, orgId, personId);
  const today = localDate(new Date(), zone);
  return (await repo.grantsOf(db, orgId, personId)).map((g) => grantWire(g, today));
}

/** A renewal is a new grant; the older one stays as history. */
export async function grantQualification(
  db: Db,
  orgId: string,
  zone: string,
  actor: string,
  personId: string,
  b: Static<typeof GrantCreate>,
) {
  const today = localDate(new Date(), zone);
  const row = await db.tx(async (q) => {
    await volunteerOr404(q, orgId, personId);
    const ql = await repo.qualificationById(q, orgId, b.qualification_id);
    if (!ql) throw invalid({ qualification_id: ['is not a qualification of this organization'] });
    const granted = b.granted_on ?? today;
    const expires = b.expires_on !== undefined ? b.expires_on : ql.validity_days ? addDays(granted, ql.validity_days - 1) : null;
    if (expires !== null && expires < granted) throw invalid({ expires_on: ['must not be before granted_on'] });
    const id = await repo.insertGrant(q, orgId, {
      person_id: personId,
      qualification_id: ql.id,
      granted_on: granted,
      expires_on: expires,
    });
    await audit(q, orgId, actor, 'grant', 'volunteer_qualification_grant', id, { person_id: personId, ...b });
    return repo.grantById(q, orgId, personId, id);
  });
  if (!row) throw notFound('grant');
  return grantWire(row, today);
}

export async function withdrawGrant(db: Db, orgId: string, actor: string, personId: string, grantId: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.grantById(q, orgId, personId, grantId))) throw notFound('qualification grant');
    await repo.deleteGrant(q, orgId, grantId);
    await audit(q, orgId, actor, 'withdraw', 'volunteer_qualification_grant', grantId, { person_id: personId });
  });
}
