import type { Static } from '@sinclair/typebox';
import { createHash, randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { kx, sql } from '../../platform/db/kysely.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { moneyText } from '../../platform/money.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { animalAltered, getAnimal } from '../animals/public.ts';
import { personSummary } from '../people/public.ts';
import { fillText, mergeFieldsIn, orgBaseUrl, providersConfigured, recordMergeValues, send } from '../communications/public.ts';
import { applicationById } from './applications.service.ts';
import type { Caller } from './adoptions.service.ts';
import { quote } from './fees.ts';
import { contractPdf } from './pdf.ts';
import type { ContractSend, ContractTemplateCreate, ContractTemplatePatch, SignedContractT } from './schemas.ts';

/** The merge fields a contract template may use (filled from the application, its animals, the fee and the organization). */
export const CONTRACT_MERGE_FIELDS = [
  { name: 'first_name', description: "the applicant's first name" },
  { name: 'last_name', description: "the applicant's last name" },
  { name: 'full_name', description: "the applicant's full name" },
  { name: 'email', description: "the applicant's email address" },
  { name: 'phone', description: "the applicant's phone number" },
  { name: 'animal_name', description: 'the animals\' names, listed "A, B and C" when several' },
  { name: 'animal_species', description: 'their species' },
  { name: 'animal_breed', description: 'their breeds' },
  { name: 'animal_sex', description: 'their sexes' },
  { name: 'animal_id', description: 'their Pet IDs: the microchip numbers (Ark\'s internal ids are never shown), "none" without one' },
  { name: 'microchip', description: 'their microchip numbers' },
  { name: 'fee', description: 'the adoption fee, formatted in the currency' },
  { name: 'fee_minor', description: 'the fee in minor units (cents)' },
  { name: 'currency', description: "the fee's ISO 4217 currency code" },
  {
    name: 'spay_neuter_due_on',
    description: 'for an unaltered animal, the spay/neuter due date given (else 30 days from today); otherwise "not applicable"',
  },
  { name: 'org_name', description: "the organization's name" },
  { name: 'today', description: "today's date in the organization's time zone" },
] as const;
export const CONTRACT_FIELDS: readonly string[] = CONTRACT_MERGE_FIELDS.map((f) => f.name);

// Templates

/** The contract templates of an organization as answered (`status` narrowed to what the table's check allows). */
const templateRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('contract_templates')
    .select(['id', 'name', 'status', 'version', 'title', 'body', 'created_at', 'updated_at'])
    .where('organization_id', '=', orgId)
    .$narrowType<{ status: 'active' | 'archived' }>();
type TemplateRead = Awaited<ReturnType<ReturnType<typeof templateRows>['executeTakeFirstOrThrow']>>;
const presentTemplate = (t: TemplateRead) => ({ ...t, merge_fields: mergeFieldsIn([t.title, t.body]) });

function checkFields(title: string | undefined, body: string | undefined): void {
  const unknown = mergeFieldsIn([title ?? '', body ?? '']).filter((f) => !CONTRACT_FIELDS.includes(f));
  if (unknown.length) throw invalid({ body: [`unknown merge fields: ${unknown.join(', ')} (known: ${CONTRACT_FIELDS.join(', ')})`] });
}

export async function templateById(q: Queryable, orgId: string, id: string) {
  const r = await templateRows(q, orgId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('contract template');
  return presentTemplate(r);
}
export async function listTemplates(q: Queryable, orgId: string, limit: number, offset: number) {
  const rows = await templateRows(q, orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return { results: rows.slice(0, limit).map(presentTemplate), limit, offset, has_more: rows.length > limit };
}
export async function createTemplate(db: Db, orgId: string, b: Static<typeof ContractTemplateCreate>, actor: string) {
  checkFields(b.title, b.body);
  const id = newId('ctt');
  return db.tx(async (q) => {
    await kx(q)
      .insertInto('contract_templates')
      .values({ organization_id: orgId, id, name: b.name, title: b.title, body: b.body })
      .execute();
    await kx(q)
      .insertInto('contract_template_versions')
      .values({ organization_id: orgId, template_id: id, version: 1, title: b.title, body: b.body })
      .execute();
    await audit(q, orgId, actor, 'create', 'contract_template', id, { name: b.name });
    return templateById(q, orgId, id);
  });
}
/** A change of title or body makes a new version (kept; contracts name the version they were made from); name and status do not. */
export async function patchTemplate(db: Db, orgId: string, id: string, b: Static<typeof ContractTemplatePatch>, actor: string) {
  checkFields(b.title, b.body);
  return db.tx(async (q) => {
    const cur = await templateRows(q, orgId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!cur) throw notFound('contract template');
    const title = b.title ?? cur.title;
    const body = b.body ?? cur.body;
    const changed = title !== cur.title || body !== cur.body;
    const version = changed ? cur.version + 1 : cur.version;
    await kx(q)
      .updateTable('contract_templates')
      .set({ name: b.name ?? cur.name, status: b.status ?? cur.status, title, body, version, updated_at: sql`now()` })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    if (changed)
      await kx(q)
        .insertInto('contract_template_versions')
        .values({ organization_id: orgId, template_id: id, version, title, body })
        .execute();
    await audit(q, orgId, actor, 'update', 'contract_template', id, { ...b, version });
    return templateById(q, orgId, id);
  });
}
export async function templateVersions(q: Queryable, orgId: string, id: string) {
  await templateById(q, orgId, id);
  return {
    results: await kx(q)
      .selectFrom('contract_template_versions')
      .select(['version', 'title', 'body', 'created_at'])
      .where('organization_id', '=', orgId)
      .where('template_id', '=', id)
      .orderBy('version', 'desc')
      .execute(),
  };
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// Signed contracts

/** The signed contracts of an organization, every column answered (the token's hash is never read back). */
const contractRows = (q: Queryable, orgId: string) =>
  kx(q)
    .selectFrom('signed_contracts')
    .select([
      'id',
      'application_id',
      'person_id',
      'animal_ids',
      'template_id',
      'template_version',
      'title',
      'document',
      'document_sha256',
      'fee_minor',
      'currency',
      'token_expires_at',
      'token_used_at',
      'sent_to',
      'emailed_at',
      'email_message_id',
      'signed_name',
      'signed_at',
      'signed_ip',
      'signed_user_agent',
      'created_at',
    ])
    .where('organization_id', '=', orgId);
type ContractRead = Awaited<ReturnType<ReturnType<typeof contractRows>['executeTakeFirstOrThrow']>>;

function presentContract(r: ContractRead, now = new Date()): SignedContractT {
  return {
    id: r.id,
    application_id: r.application_id,
    person_id: r.person_id,
    animal_ids: r.animal_ids,
    template_id: r.template_id,
    template_version: r.template_version,
    title: r.title,
    document: r.document,
    document_sha256: r.document_sha256,
    fee_minor: Number(r.fee_minor),
    currency: r.currency,
    status: r.signed_at ? 'signed' : r.token_expires_at <= now ? 'expired' : 'awaiting_signature',
    link_expires_at: r.token_expires_at,
    sent_to: r.sent_to,
    emailed_at: r.emailed_at,
    email_message_id: r.email_message_id,
    signed_name: r.signed_name,
    signed_at: r.signed_at,
    signed_ip: r.signed_ip,
    signed_user_agent: r.signed_user_agent,
    created_at: r.created_at,
  };
}

export async function contractById(q: Queryable, orgId: string, id: string): Promise<SignedContractT> {
  const r = await contractRows(q, orgId).where('id', '=', id).executeTakeFirst();
  if (!r) throw notFound('contract');
  return presentContract(r);
}
export async function listContracts(q: Queryable, orgId: string, f: { application_id?: string; limit: number; offset: number }) {
  let list = contractRows(q, orgId);
  if (f.application_id !== undefined) list = list.where('application_id', '=', f.application_id);
  const rows = await list
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.limit + 1)
    .offset(f.offset)
    .execute();
  return {
    results: rows.slice(0, f.limit).map((r) => presentContract(r)),
    limit: f.limit,
    offset: f.offset,
    has_more: rows.length > f.limit,
  };
}

/** The filled document of a contract: merge fields from the application's applicant and animals, the fee and the organization. */
async function fillContract(
  q: Queryable,
  org: Organization,
  tpl: { title: string; body: string },
  personId: string,
  animalIds: string[],
  feeMinor: number,
  spayDue: string | null,
): Promise<{ title: string; document: string }> {
  const person = await personSummary(q, org.id, personId);
  const animals = [];
  for (const id of animalIds) {
    const a = await getAnimal(q, org.id, id);
    if (a) animals.push(a);
  }
  const v: Record<string, string> = {
    ...recordMergeValues(person ? [person] : [], animals, org.name, { complete: true }),
    fee: moneyText(feeMinor, org.currency),
    fee_minor: String(feeMinor),
    currency: org.currency,
    today: DateTime.now().setZone(org.time_zone).toISODate() as string,
    spay_neuter_due_on: spayDue ?? 'not applicable (already spayed/neutered)',
  };
  return { title: fillText(tpl.title, v), document: fillText(tpl.body, v) };
}

/**
 * Makes a contract for an application from a template (the document filled now and frozen, with its SHA-256) and a
 * single-use signing link valid for `expires_in_hours`; emails the link to the applicant when sending is configured.
 */
export async function sendContract(db: Db, c: Caller, b: Static<typeof ContractSend>) {
  const orgId = c.org.id;
  const token = randomBytes(32).toString('base64url');
  const id = newId('ctr');
  const hours = b.expires_in_hours ?? 168;
  const row = await db.tx(async (q) => {
    const app = await applicationById(q, orgId, b.application_id);
    if (!app) throw invalid({ application_id: ['names no adoption application'] });
    if (app.stage_kind === 'closed') throw invalid({ application_id: ['the application is closed'] });
    const tpl = await templateById(q, orgId, b.template_id).catch(() => {
      throw invalid({ template_id: ['names no contract template'] });
    });
    if (tpl.status !== 'active') throw invalid({ template_id: ['the template is archived'] });
    const animals = b.animal_ids ?? app.animal_ids;
    const foreign = animals.filter((a) => !app.animal_ids.includes(a));
    if (foreign.length) throw invalid({ animal_ids: [`not applied for in this application: ${foreign.join(', ')}`] });
    const today = DateTime.now().setZone(c.org.time_zone).toISODate() as string;
    let fee = b.fee_minor;
    if (fee === undefined) {
      fee = 0;
      for (const a of animals) fee += (await quote(q, c.org, a, today, false)).amount_minor;
    }
    let spayDue: string | null = null;
    for (const a of animals) {
      const alt = await animalAltered(q, orgId, a);
      if (alt && !alt.altered) spayDue = b.spay_neuter_due_on ?? DateTime.fromISO(today).plus({ days: 30 }).toISODate();
    }
    const filled = await fillContract(q, c.org, tpl, app.person_id, animals, fee, spayDue);
    await kx(q)
      .insertInto('signed_contracts')
      .values({
        organization_id: orgId,
        id,
        application_id: app.id,
        person_id: app.person_id,
        animal_ids: animals,
        template_id: tpl.id,
        template_version: tpl.version,
        title: filled.title,
        document: filled.document,
        document_sha256: sha256(filled.document),
        fee_minor: String(fee),
        currency: c.org.currency,
        token_sha256: sha256(token),
        token_expires_at: sql<Date>`now() + make_interval(hours => ${hours})`,
        sent_to: null,
        created_by: c.actor,
      })
      .execute();
    await audit(q, orgId, c.actor, 'create', 'signed_contract', id, { application_id: app.id, template_id: tpl.id, version: tpl.version });
    return { contract: await contractById(q, orgId, id), person_id: app.person_id };
  });
  return mailLink(db, c, row.contract, row.person_id, token, b.send_email !== false, `contract-${id}`);
}

/** A moment as the organization reads it: "2 Dec 2026, 14:00 (America/Chicago)". */
function readableMoment(at: Date | string, zone: string): string {
  const d = DateTime.fromJSDate(new Date(at)).setZone(zone);
  return `${d.toFormat('d LLL yyyy, HH:mm')} (${zone})`;
}

/** Emails a contract's signing link to the applicant (when asked and sending is configured); answers the link and what happened. */
async function mailLink(
  db: Db,
  c: Caller,
  contract: SignedContractT,
  personId: string,
  token: string,
  mail: boolean,
  idempotencyKey: string,
) {
  const url = `${orgBaseUrl(c.config, c.org.slug)}/sign/${token}`;
  let email: { sent: boolean; message_id: string | null; reason: string | null } = {
    sent: false,
    message_id: null,
    reason: 'send_email was false',
  };
  if (mail) {
    if (!providersConfigured(c.config)) email = { sent: false, message_id: null, reason: 'sending is not configured' };
    else {
      try {
        const res = await send(db, c.config, c.org, c.actor, c.principal, {
          idempotency_key: idempotencyKey,
          person_id: personId,
          subject: `Please sign: ${contract.title}`,
          body_blocks: [
            { type: 'p', runs: [{ text: `${c.org.name} asks you to read and sign your adoption contract.` }] },
            { type: 'button', runs: [{ text: 'Read and sign', href: url }] },
            {
              type: 'p',
              runs: [{ text: `The link works once and expires on ${readableMoment(contract.link_expires_at, c.org.time_zone)}.` }],
            },
          ],
          category: 'transactional',
        });
        const m = res.messages[0] as { id?: string; status?: string; recipient_address?: string } | undefined;
        email = {
          sent: m?.status !== 'suppressed',
          message_id: m?.id ?? null,
          reason: m?.status === 'suppressed' ? 'the address is suppressed' : null,
        };
        if (email.sent && m?.recipient_address) {
          // The contract records that its link went out, to whom and when (the message log has the delivery).
          await kx(db)
            .updateTable('signed_contracts')
            .set({ sent_to: m.recipient_address, emailed_at: sql`now()`, email_message_id: m.id ?? null })
            .where('organization_id', '=', c.org.id)
            .where('id', '=', contract.id)
            .where('signed_at', 'is', null)
            .execute();
          contract = await contractById(db, c.org.id, contract.id);
        }
      } catch (e) {
        email = { sent: false, message_id: null, reason: (e as Error).message };
      }
    }
  }
  return { ...contract, signing_url: url, email };
}

/**
 * A fresh signing link for a contract not signed yet (awaiting signature or expired): a new single-use token valid for
 * `expires_in_hours` replaces the old one, whose link stops working; mailed again like the first.
 */
export async function resendContract(db: Db, c: Caller, id: string, b: { expires_in_hours?: number; send_email?: boolean }) {
  const orgId = c.org.id;
  const token = randomBytes(32).toString('base64url');
  const row = await db.tx(async (q) => {
    const cur = await contractRows(q, orgId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!cur) throw notFound('contract');
    if (cur.signed_at) throw invalid({ id: ['the contract is signed already: there is nothing to sign again'] });
    await kx(q)
      .updateTable('signed_contracts')
      .set({
        token_sha256: sha256(token),
        token_expires_at: sql<Date>`now() + make_interval(hours => ${b.expires_in_hours ?? 168})`,
        token_used_at: null,
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    await audit(q, orgId, c.actor, 'resend', 'signed_contract', id, { expires_in_hours: b.expires_in_hours ?? 168 });
    return { contract: await contractById(q, orgId, id), person_id: cur.person_id };
  });
  return mailLink(db, c, row.contract, row.person_id, token, b.send_email !== false, `contract-${id}-${sha256(token).slice(0, 16)}`);
}

/** Deletes a contract not signed yet (a signed one is immutable: the database refuses too). */
export async function deleteContract(db: Db, orgId: string, id: string, actor: string): Promise<void> {
  await db.tx(async (q) => {
    const c = await contractById(q, orgId, id);
    if (c.signed_at) throw invalid({ id: ['a signed contract is immutable: make a new contract to correct it'] });
    const used = await kx(q)
      .selectFrom('adoptions')
      .select(sql<number>`1`.as('one'))
      .where('organization_id', '=', orgId)
      .where('contract_id', '=', id)
      .executeTakeFirst();
    if (used) throw invalid({ id: ['an adoption names this contract'] });
    await kx(q).deleteFrom('signed_contracts').where('organization_id', '=', orgId).where('id', '=', id).execute();
    await audit(q, orgId, actor, 'delete', 'signed_contract', id, {});
  });
}

/** A signed contract as PDF (refused while it is not signed). */
export async function signedContractPdf(q: Queryable, org: Organization, id: string) {
  const contract = await contractById(q, org.id, id);
  if (!contract.signed_at) throw invalid({ id: ['the contract is not signed yet'] });
  return { contract, pdf: await contractPdf(contract, org.name) };
}

// Public signing

export type SigningState =
  | { state: 'unknown' }
  | { state: 'used'; contract: SignedContractT }
  | { state: 'expired'; contract: SignedContractT }
  | { state: 'open'; contract: SignedContractT };

export async function signingState(q: Queryable, orgId: string, token: string): Promise<SigningState> {
  const r = await contractRows(q, orgId).where('token_sha256', '=', sha256(token)).executeTakeFirst();
  if (!r) return { state: 'unknown' };
  const contract = presentContract(r);
  if (r.token_used_at || r.signed_at) return { state: 'used', contract };
  if (r.token_expires_at <= new Date()) return { state: 'expired', contract };
  return { state: 'open', contract };
}

/**
 * Signs through the link: the typed name, consent, and the hash of the document the page showed must match the
 * stored document. The row is locked, so of two concurrent submissions one signs and the other finds the link used.
 */
export async function sign(
  db: Db,
  orgId: string,
  token: string,
  f: { name: string; consent: boolean; document_sha256: string; ip: string; user_agent: string },
): Promise<
  SigningState | { state: 'signed'; contract: SignedContractT } | { state: 'invalid'; contract: SignedContractT; message: string }
> {
  return db.tx(async (q) => {
    const r = await contractRows(q, orgId).where('token_sha256', '=', sha256(token)).forUpdate().executeTakeFirst();
    if (!r) return { state: 'unknown' as const };
    const contract = presentContract(r);
    if (r.token_used_at || r.signed_at) return { state: 'used' as const, contract };
    if (r.token_expires_at <= new Date()) return { state: 'expired' as const, contract };
    const name = f.name.trim();
    if (!name || name.length > 200) return { state: 'invalid' as const, contract, message: 'Type your full name to sign.' };
    if (!f.consent) return { state: 'invalid' as const, contract, message: 'Tick the box to agree to sign electronically.' };
    if (f.document_sha256 !== r.document_sha256)
      return {
        state: 'invalid' as const,
        contract,
        message: 'The document changed since the page was opened: reload the page and read it again.',
      };
    await kx(q)
      .updateTable('signed_contracts')
      .set({
        token_used_at: sql`now()`,
        signed_at: sql`now()`,
        signed_name: name,
        signed_ip: f.ip.slice(0, 100),
        signed_user_agent: f.user_agent.slice(0, 500),
      })
      .where('organization_id', '=', orgId)
      .where('id', '=', r.id)
      .execute();
    await audit(q, orgId, null, 'sign', 'signed_contract', r.id, { name, ip: f.ip, document_sha256: r.document_sha256 });
    return { state: 'signed' as const, contract: await contractById(q, orgId, r.id) };
  });
}
