import type { Db, Queryable } from '../../platform/db/db.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { check } from '../../platform/validation.ts';
import { normalizePhone, isEmail } from '../../platform/validators.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { recordChanges } from '../../platform/changes.ts';
import { audit } from '../../platform/audit.ts';
import {
  AnimalCreate,
  AnimalUpdate,
  createAnimalsIn,
  type AnimalBulkItem,
  importWeights,
  setColourIn,
  updateAnimal,
  animalStatusList,
} from '../animals/public.ts';
import { PersonUpdate, addRole, insertPeople, matchIndex, updatePerson, type NewPerson } from '../people/public.ts';
import { LIVE_OUTCOMES, importStays, openStayIds, statusMapOf, type ImportedStay } from '../stays/public.ts';
import { importMedicalRecords, type ImportedMedicalRecord } from '../medical/public.ts';
import { importCareNotes } from '../care/public.ts';
import { importFosterPlacements } from '../operations/public.ts';
import { insertDonation, updateImportedDonation } from '../donations/public.ts';
import { importAdoptions, type ImportedAdoption } from '../adoptions/public.ts';
import { addOutsidePhoto, publishPhotos } from '../media/public.ts';
import type { Config } from '../../config.ts';
import { fetchPhoto, photoFetchOptions, pooled } from './photos.ts';
import {
  KINDS,
  type BundleKind,
  type MPhoto,
  fingerprint,
  type Bundle,
  type Kind,
  type MAnimal,
  type MDonation,
  type MFoster,
  type MMedical,
  type MNote,
  type MPerson,
  type MStay,
  type MWeight,
  type Mappings,
  type OutcomeCategory,
} from './model.ts';
import { linkedArkIds, lookupExternal, recordExternal, type SourceLink } from './repository.ts';

export interface KindCounts {
  new: number;
  updated: number;
  unchanged: number;
  /** People found already in Ark (same email, phone or name) and linked rather than made again. */
  matched: number;
  refused: number;
}
export interface Report {
  source: string;
  counts: Record<Kind, KindCounts>;
  /** The first refused records (the counts are complete). */
  refused: { kind: Kind; row: string; reason: string }[];
}
export const REFUSED_CAP = 1000;
export const newReport = (source: string): Report => ({
  source,
  counts: Object.fromEntries(KINDS.map((k) => [k, { new: 0, updated: 0, unchanged: 0, matched: 0, refused: 0 }])) as Record<
    Kind,
    KindCounts
  >,
  refused: [],
});
export function refuse(report: Report, kind: Kind, row: string, reason: string): void {
  report.counts[kind].refused += 1;
  if (report.refused.length < REFUSED_CAP) report.refused.push({ kind, row, reason });
}

/** What a batch needs besides its records. */
export interface WriteContext {
  db: Db;
  org: Organization;
  source: string;
  bundle: Bundle;
  mappings: Mappings;
  report: Report;
  actor: string;
  /** Where photos are stored; absent in a dry run, which counts the photos it would fetch without fetching them. */
  config?: Pick<Config, 's3' | 'dataDir' | 'photoMaxBytes'>;
}

const reason = (err: unknown): string => {
  if (err instanceof AppError) {
    if (err.fields)
      return Object.entries(err.fields)
        .map(([f, m]) => `${f} ${m.join(', ')}`)
        .join('; ');
    return err.message;
  }
  throw err;
};

/** Source ids → Ark ids of another kind the batch refers to (animals of stays, people of donations...). */
async function refs(w: WriteContext, kind: Kind, exts: (string | null)[]): Promise<Map<string, string>> {
  const want = [...new Set(exts.filter((e): e is string => !!e))];
  const found = await lookupExternal(w.db, w.org.id, w.source, kind, want);
  return new Map([...found].map(([k, v]) => [k, v.ark_id]));
}

/** Writes one batch of one kind: new records made, changed ones updated, the same ones left alone. */
export async function writeBatch(w: WriteContext, kind: BundleKind, records: Bundle[BundleKind]): Promise<void> {
  if (!records.length) return;
  switch (kind) {
    case 'person':
      return people(w, records as MPerson[]);
    case 'animal':
      return animals(w, records as MAnimal[]);
    case 'stay':
      return stays(w, records as MStay[]);
    case 'medical':
      return medical(w, records as MMedical[]);
    case 'weight':
      return weights(w, records as MWeight[]);
    case 'note':
      return notes(w, records as MNote[]);
    case 'foster':
      return fosters(w, records as MFoster[]);
    case 'donation':
      return donations(w, records as MDonation[]);
    case 'photo':
      return photos(w, records as MPhoto[]);
  }
}

/** Records of the batch split by what is on file for them: new, changed (with their Ark id), unchanged. */
async function classify<R extends { ext: string }>(w: WriteContext, kind: Kind, records: R[], extra: (r: R) => unknown = () => null) {
  const known = await lookupExternal(
    w.db,
    w.org.id,
    w.source,
    kind,
    records.map((r) => r.ext),
  );
  const fresh: { r: R; fp: string }[] = [];
  const changed: { r: R; fp: string; id: string }[] = [];
  for (const r of records) {
    const fp = fingerprint(r as never, extra(r));
    const k = known.get(r.ext);
    if (!k) fresh.push({ r, fp });
    else if (k.fingerprint === fp) w.report.counts[kind].unchanged += 1;
    else changed.push({ r, fp, id: k.ark_id });
  }
  return { fresh, changed };
}

// ---------------------------------------------------------------------------------------------------------------- people

const placeholderEmail = (source: string, ext: string) =>
  `${source}-${ext
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)}@no-email.invalid`;

async function people(w: WriteContext, records: MPerson[]): Promise<void> {
  const { fresh, changed } = await classify(w, 'person', records);
  const done: SourceLink[] = [];
  for (const { r, fp, id } of changed) {
    try {
      const body: Record<string, unknown> = { firstName: r.first_name || '-', lastName: r.last_name };
      if (r.phone) body.phone = r.phone;
      if (r.address) body.address = r.address;
      await updatePerson(w.db, w.org, id, check(PersonUpdate, body), w.actor);
      for (const role of r.roles) await addRole(w.db, w.org.id, id, role, w.actor);
      w.report.counts.person.updated += 1;
      done.push({ ext: r.ext, ark_id: id, fingerprint: fp });
    } catch (err) {
      refuse(w.report, 'person', r.row, reason(err));
    }
  }
  if (fresh.length) {
    const byEmail = new Map<string, string>();
    const byPhone = new Map<string, string>();
    const byName = new Map<string, { id: string; postal: string | null }[]>();
    const addName = (name: string, id: string, postal: string | null) => {
      const l = byName.get(name) ?? [];
      l.push({ id, postal });
      byName.set(name, l);
    };
    for (const p of await matchIndex(w.db, w.org.id)) {
      byEmail.set(p.email, p.id);
      if (p.phone) byPhone.set(p.phone, p.id);
      addName(p.name, p.id, p.postal);
    }
    const made: NewPerson[] = [];
    for (const { r, fp } of fresh) {
      const email = r.email && isEmail(r.email.trim()) ? r.email.trim() : null;
      const phone = r.phone ? normalizePhone(r.phone, r.address?.country || w.org.country) : null;
      const name = `${r.first_name} ${r.last_name}`.trim().toLowerCase();
      const postal = r.address?.postalCode ? r.address.postalCode.toUpperCase().replace(/\s/g, '') : null;
      if (!name) {
        refuse(w.report, 'person', r.row, 'has no name');
        continue;
      }
      // The same person already in Ark: by email, then phone, then name (with the same postal code when both have one,
      // or by name alone when the source gives neither email nor phone).
      let match = email ? byEmail.get(email.toLowerCase()) : undefined;
      if (!match && phone) match = byPhone.get(phone);
      if (!match)
        match = (byName.get(name) ?? []).find((c) => (postal && c.postal ? c.postal === postal : !email && !phone && !postal))?.id;
      if (match) {
        for (const role of r.roles) if (!match.startsWith('new:')) await addRole(w.db, w.org.id, match, role, w.actor);
        const id = match.startsWith('new:') ? match.slice(4) : match;
        if (match.startsWith('new:')) {
          const p = made.find((m) => m.id === id);
          if (p) p.roles = [...new Set([...p.roles, ...r.roles])];
        }
        w.report.counts.person.matched += 1;
        done.push({ ext: r.ext, ark_id: id, fingerprint: fp });
        continue;
      }
      const id = newId('per');
      const a = r.address;
      made.push({
        id,
        first_name: r.first_name || '-',
        last_name: r.last_name,
        email: email ?? placeholderEmail(w.source, r.ext),
        phone,
        address: a && a.line1 && a.city && a.country ? { ...a, line2: null } : null,
        roles: [...new Set(r.roles)],
        tags: email ? [] : ['no-email'],
        notes: r.email && !email ? `Email as recorded before the move: ${r.email}` : null,
        time_zone: w.org.time_zone,
      });
      if (email) byEmail.set(email.toLowerCase(), `new:${id}`);
      if (phone) byPhone.set(phone, `new:${id}`);
      addName(name, `new:${id}`, postal);
      w.report.counts.person.new += 1;
      done.push({ ext: r.ext, ark_id: id, fingerprint: fp });
    }
    await insertPeople(w.db, w.org.id, made, w.actor);
    await recordChanges(
      w.db,
      w.org.id,
      made.map((p) => ({
        event: 'person.created' as const,
        entity: 'person',
        id: p.id,
        fields: { first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone, roles: p.roles, tags: p.tags },
        actor: w.actor,
      })),
    );
  }
  await recordExternal(w.db, w.org.id, w.source, 'person', done);
}

// --------------------------------------------------------------------------------------------------------------- animals

/**
 * What a run works out once from its whole bundle (every stay), kept per bundle rather than per batch: a batch's
 * context is new each batch, and a pass over every stay per batch made a large move's cost grow with the square of its
 * size. `key` is what else the value depends on (the outcome mapping).
 */
const perBundle = new WeakMap<Bundle, Map<string, { key: string; value: unknown }>>();
function once<T>(w: WriteContext, name: string, key: string, make: () => T): T {
  let m = perBundle.get(w.bundle);
  if (!m) {
    m = new Map<string, { key: string; value: unknown }>();
    perBundle.set(w.bundle, m);
  }
  const hit = m.get(name);
  if (hit && hit.key === key) return hit.value as T;
  const value = make();
  m.set(name, { key, value });
  return value;
}

/** Per animal: its first intake date and how its last stay ended (null: still in care). */
function animalFacts(w: WriteContext): Map<string, { first: string | null; last: OutcomeCategory | null }> {
  return once(w, 'facts', JSON.stringify(w.mappings.outcome), () => animalFactsOf(w));
}
function animalFactsOf(w: WriteContext): Map<string, { first: string | null; last: OutcomeCategory | null }> {
  const facts = new Map<string, { first: string | null; last: OutcomeCategory | null; lastAt: string }>();
  for (const s of w.bundle.stay) {
    if (!s.intake_at) continue;
    const f = facts.get(s.animal);
    const last = s.outcome_at ? (w.mappings.outcome[s.outcome_label || 'Unknown'] ?? 'other_live') : null;
    if (!f) facts.set(s.animal, { first: s.intake_at.slice(0, 10), last, lastAt: s.intake_at });
    else {
      if (s.intake_at.slice(0, 10) < (f.first ?? '9999')) f.first = s.intake_at.slice(0, 10);
      if (s.intake_at >= f.lastAt) {
        f.last = last;
        f.lastAt = s.intake_at;
      }
    }
  }
  return facts;
}

async function animals(w: WriteContext, records: MAnimal[]): Promise<void> {
  const facts = animalFacts(w);
  const { fresh, changed } = await classify(w, 'animal', records);
  const statuses = await animalStatusList(w.db, w.org.id);
  const inCare = statuses.find((s) => s.name === 'Available') ?? statuses.find((s) => s.care_state === 'in_care') ?? statuses[0];
  // An animal whose last stay ended takes the status the organization maps that outcome to; an outcome mapped to "leave
  // the status as it is" (nothing to leave on a record just brought over) takes that of a transfer out when it was a live
  // outcome, of a death in care when not.
  const outcomeStatus = new Map(
    (await statusMapOf(w.db, w.org.id)).results.filter((m) => m.kind === 'outcome').map((m) => [m.category, m.status]),
  );
  const statusFor = (ext: string) => {
    const last = facts.get(ext)?.last;
    const want = last
      ? (outcomeStatus.get(last) ?? outcomeStatus.get(LIVE_OUTCOMES.includes(last) ? 'transfer_out' : 'died_in_care'))
      : null;
    return want ?? inCare?.name ?? 'Available';
  };
  const done: SourceLink[] = [];
  for (const { r, fp, id } of changed) {
    try {
      const body: Record<string, unknown> = { name: r.name, dateOfBirth: r.date_of_birth, notes: r.notes };
      if (r.microchip) body.microchipNumber = r.microchip;
      await updateAnimal(w.db, w.org.id, id, check(AnimalUpdate, body), w.actor, w.org.time_zone);
      await setColourIn(w.db, w.org.id, id, r.colour);
      w.report.counts.animal.updated += 1;
      done.push({ ext: r.ext, ark_id: id, fingerprint: fp });
    } catch (err) {
      refuse(w.report, 'animal', r.row, reason(err));
    }
  }
  // The new animals are checked one by one (a refusal names its row) and the valid ones made by one statement.
  const batch: { r: MAnimal; fp: string; item: AnimalBulkItem }[] = [];
  for (const { r, fp } of fresh) {
    const intake = facts.get(r.ext)?.first ?? r.intake_date ?? r.date_of_birth;
    if (!intake) {
      refuse(w.report, 'animal', r.row, 'has no intake date (and no stay or date of birth to take one from)');
      continue;
    }
    const body: Record<string, unknown> = {
      name: r.name.slice(0, 100) || r.ext,
      species: r.species || 'Other',
      status: statusFor(r.ext),
      intakeDate: intake,
      sex: r.sex,
    };
    if (r.breed) body.breed = r.breed.slice(0, 100);
    if (r.date_of_birth && r.date_of_birth <= intake) body.dateOfBirth = r.date_of_birth;
    if (r.notes) body.notes = r.notes;
    if (r.microchip) body.microchipNumber = r.microchip;
    try {
      let checked;
      try {
        checked = check(AnimalCreate, body);
      } catch (err) {
        // A chip Ark cannot take as a number is kept in the notes rather than losing the animal.
        if (!(err instanceof AppError) || !err.fields?.microchipNumber) throw err;
        delete body.microchipNumber;
        body.notes = [body.notes, `Microchip as recorded before the move: ${r.microchip}`].filter(Boolean).join('\n\n');
        checked = check(AnimalCreate, body);
      }
      batch.push({ r, fp, item: { body: checked, colour: r.colour } });
    } catch (err) {
      refuse(w.report, 'animal', r.row, reason(err));
    }
  }
  const made = await createAnimalsIn(
    w.db,
    w.org.id,
    batch.map((b) => b.item),
    w.actor,
    w.org.time_zone,
  );
  made.forEach((m, i) => {
    const { r, fp } = batch[i] as (typeof batch)[number];
    if ('error' in m) {
      refuse(w.report, 'animal', r.row, reason(m.error));
      return;
    }
    w.report.counts.animal.new += 1;
    done.push({ ext: r.ext, ark_id: m.id, fingerprint: fp });
    for (const alias of r.aliases ?? []) if (alias !== r.ext) done.push({ ext: alias, ark_id: m.id, fingerprint: 'alias' });
  });
  await recordExternal(w.db, w.org.id, w.source, 'animal', done);
}

// ----------------------------------------------------------------------------------------------------------------- stays

async function stays(w: WriteContext, records: MStay[]): Promise<void> {
  const mapped = (s: MStay) => ({
    intake: w.mappings.intake[s.intake_label || 'Unknown'] ?? 'other',
    outcome: s.outcome_at ? (w.mappings.outcome[s.outcome_label || 'Unknown'] ?? 'other_live') : null,
  });
  const { fresh, changed } = await classify(w, 'stay', records, mapped);
  const animalIds = await refs(
    w,
    'animal',
    records.map((r) => r.animal),
  );
  const personIds = await refs(
    w,
    'person',
    records.flatMap((r) => [r.source_person, r.destination_person]),
  );
  const done: SourceLink[] = [];
  const rows: ImportedStay[] = [];
  // An animal made by this move opened its first stay when it was created: the source's first stay becomes it (unless
  // that open stay already stands for a source stay).
  const open = await openStayIds(
    w.db,
    w.org.id,
    fresh.map((f) => animalIds.get(f.r.animal)).filter((a): a is string => !!a),
  );
  const owned = await linkedArkIds(w.db, w.org.id, 'stay', [...open.values()]);
  const claimed = new Set<string>();
  for (const { r, fp, id } of [...fresh.map((f) => ({ ...f, id: null as string | null })), ...changed].sort((a, b) =>
    a.r.animal === b.r.animal ? (a.r.intake_at ?? '').localeCompare(b.r.intake_at ?? '') : 0,
  )) {
    const animal = animalIds.get(r.animal);
    if (!animal) {
      refuse(w.report, 'stay', r.row, `names animal ${r.animal}, which was not brought over`);
      continue;
    }
    if (!r.intake_at) {
      refuse(w.report, 'stay', r.row, 'has no intake date');
      continue;
    }
    if (r.outcome_at && r.outcome_at < r.intake_at) {
      refuse(w.report, 'stay', r.row, `ends (${r.outcome_at.slice(0, 10)}) before it starts (${r.intake_at.slice(0, 10)})`);
      continue;
    }
    const m = mapped(r);
    let stayId = id;
    if (!stayId) {
      const first = claimed.has(animal) ? undefined : open.get(animal);
      claimed.add(animal);
      stayId = first && !owned.has(first) ? first : newId('sty');
    }
    rows.push({
      id: stayId,
      animal_id: animal,
      intake_at: r.intake_at,
      intake_type: m.intake,
      outcome_at: r.outcome_at,
      outcome_type: m.outcome,
      source_person_id: r.source_person ? (personIds.get(r.source_person) ?? null) : null,
      destination_person_id: r.destination_person ? (personIds.get(r.destination_person) ?? null) : null,
      adoption_return: r.adoption_return && m.intake === 'relinquished',
      intake_notes: r.notes,
      outcome_notes: null,
    });
    w.report.counts.stay[id ? 'updated' : 'new'] += 1;
    done.push({ ext: r.ext, ark_id: stayId, fingerprint: fp });
  }
  await importStays(w.db, w.org.id, rows, w.actor);
  await recordExternal(w.db, w.org.id, w.source, 'stay', done);
  await adoptions(w, records, rows, done);
}

/** Per source stay ended by an outcome: the next stay of the same animal when that is a return from adoption. */
function adoptionReturns(w: WriteContext): Map<string, { at: string; ext: string }> {
  return once(w, 'returns', '', () => adoptionReturnsOf(w));
}
function adoptionReturnsOf(w: WriteContext): Map<string, { at: string; ext: string }> {
  const byAnimal = new Map<string, MStay[]>();
  for (const s of w.bundle.stay) {
    if (!s.intake_at) continue;
    const list = byAnimal.get(s.animal);
    if (list) list.push(s);
    else byAnimal.set(s.animal, [s]);
  }
  const out = new Map<string, { at: string; ext: string }>();
  for (const list of byAnimal.values()) {
    list.sort((a, b) => (a.intake_at ?? '').localeCompare(b.intake_at ?? ''));
    for (let i = 0; i + 1 < list.length; i += 1) {
      const [s, next] = [list[i] as MStay, list[i + 1] as MStay];
      if (s.outcome_at && next.adoption_return && next.intake_at) out.set(s.ext, { at: next.intake_at, ext: next.ext });
    }
  }
  return out;
}

/**
 * Adoptions: a stay that ended in an adoption (as the run maps its outcome) with the adopter brought over becomes an
 * adoption record of the adoptions module, in the stay's batch, keyed by the stay's source id (a second run updates it
 * only when the stay or its fee changed). The fee is the source's where it records one (ASM3: the payments linked to
 * the movement), else zero. An animal that came back from the adoption (the next stay is an adoption return) shows
 * the adoption as returned.
 */
async function adoptions(w: WriteContext, records: MStay[], written: ImportedStay[], done: SourceLink[]): Promise<void> {
  const stayOf = new Map(done.map((d) => [d.ext, d.ark_id]));
  const rowOf = new Map(written.map((r) => [r.id, r]));
  const candidates = records.filter((r) => {
    const row = rowOf.get(stayOf.get(r.ext) ?? '');
    return row?.outcome_type === 'adoption' && row.destination_person_id && row.outcome_at;
  });
  if (!candidates.length) return;
  const returns = adoptionReturns(w);
  const fpOf = new Map(done.map((d) => [d.ext, d.fingerprint]));
  const extra = (r: MStay) => ({ fp: fpOf.get(r.ext), ret: returns.get(r.ext)?.at ?? null });
  const { fresh, changed } = await classify(w, 'adoption', candidates, extra);
  const returnStays = await refs(
    w,
    'stay',
    [...fresh, ...changed].map((c) => returns.get(c.r.ext)?.ext ?? null),
  );
  const rows: ImportedAdoption[] = [];
  const keep: SourceLink[] = [];
  for (const { r, fp, id } of [...fresh.map((f) => ({ ...f, id: null as string | null })), ...changed]) {
    const stay = rowOf.get(stayOf.get(r.ext) ?? '') as ImportedStay;
    const ret = returns.get(r.ext);
    const aid = id ?? newId('adp');
    rows.push({
      id: aid,
      animal_id: stay.animal_id,
      person_id: stay.destination_person_id as string,
      stay_id: stay.id,
      adopted_at: stay.outcome_at as string,
      fee_minor: r.fee_minor ?? '0',
      returned_at: ret?.at ?? null,
      return_stay_id: ret ? (returnStays.get(ret.ext) ?? stayOf.get(ret.ext) ?? null) : null,
    });
    w.report.counts.adoption[id ? 'updated' : 'new'] += 1;
    keep.push({ ext: r.ext, ark_id: aid, fingerprint: fp });
  }
  await importAdoptions(w.db, w.org.id, w.org.currency, rows, w.actor);
  await recordExternal(w.db, w.org.id, w.source, 'adoption', keep);
}

// -------------------------------------------------------------------------------------------------- medical, weights, notes

/**
 * Records that hang off an animal (medical records, weights, notes): each needs its animal brought over and passes its
 * own check (`problem`: a refusal's reason, or null); the owner's import function writes them in bulk, and each keeps
 * its source id.
 */
async function animalRecords<R extends { ext: string; row: string; animal: string }, Row>(
  w: WriteContext,
  kind: 'medical' | 'weight' | 'note',
  records: R[],
  idPrefix: string,
  problem: (r: R) => string | null,
  toRow: (r: R, id: string, animalId: string) => Row,
  write: (q: Queryable, orgId: string, rows: Row[], actor: string) => Promise<void>,
): Promise<void> {
  const { fresh, changed } = await classify(w, kind, records);
  const animalIds = await refs(
    w,
    'animal',
    records.map((r) => r.animal),
  );
  const rows: Row[] = [];
  const done: SourceLink[] = [];
  for (const { r, fp, id } of [...fresh.map((f) => ({ ...f, id: null as string | null })), ...changed]) {
    const animal = animalIds.get(r.animal);
    const why = animal ? problem(r) : `names animal ${r.animal}, which was not brought over`;
    if (why !== null || !animal) {
      refuse(w.report, kind, r.row, why ?? '');
      continue;
    }
    const recId = id ?? newId(idPrefix);
    rows.push(toRow(r, recId, animal));
    w.report.counts[kind][id ? 'updated' : 'new'] += 1;
    done.push({ ext: r.ext, ark_id: recId, fingerprint: fp });
  }
  await write(w.db, w.org.id, rows, w.actor);
  await recordExternal(w.db, w.org.id, w.source, kind, done);
}

const medical = (w: WriteContext, records: MMedical[]) =>
  animalRecords<MMedical, ImportedMedicalRecord>(
    w,
    'medical',
    records,
    'med',
    (r) => (!r.given_at ? `was never given${r.next_due_on ? ` (due ${r.next_due_on})` : ''}` : !r.name ? 'has no name' : null),
    (r, id, animal) => ({
      id,
      animal_id: animal,
      kind: r.kind,
      name: r.name.slice(0, 200),
      given_at: r.given_at as string,
      next_due_on: r.next_due_on,
      dose: r.dose,
      lot: r.lot,
      manufacturer: r.manufacturer,
      rabies_tag: r.rabies_tag,
      result: r.result,
      notes: r.notes,
    }),
    importMedicalRecords,
  );

const weights = (w: WriteContext, records: MWeight[]) =>
  animalRecords<MWeight, Parameters<typeof importWeights>[2][number]>(
    w,
    'weight',
    records,
    'wgt',
    (r) => (!r.measured_on ? 'has no date' : !(r.weight > 0) || r.weight > 99999 ? `weight ${r.weight} is not a weight` : null),
    (r, id, animal) => ({ id, animal_id: animal, weight: r.weight, unit: r.unit, measured_on: r.measured_on as string }),
    importWeights,
  );

const notes = (w: WriteContext, records: MNote[]) =>
  animalRecords<MNote, Parameters<typeof importCareNotes>[2][number]>(
    w,
    'note',
    records,
    'nte',
    (r) => (!r.body.trim() ? 'is empty' : null),
    (r, id, animal) => ({ id, animal_id: animal, kind: r.kind, body: r.body, created_at: r.date }),
    importCareNotes,
  );

async function fosters(w: WriteContext, records: MFoster[]): Promise<void> {
  const { fresh, changed } = await classify(w, 'foster', records);
  const animalIds = await refs(
    w,
    'animal',
    records.map((r) => r.animal),
  );
  const personIds = await refs(
    w,
    'person',
    records.map((r) => r.person),
  );
  const rows: Parameters<typeof importFosterPlacements>[2] = [];
  const done: SourceLink[] = [];
  for (const { r, fp, id } of [...fresh.map((f) => ({ ...f, id: null as string | null })), ...changed]) {
    const animal = animalIds.get(r.animal);
    const person = personIds.get(r.person);
    if (!animal) refuse(w.report, 'foster', r.row, `names animal ${r.animal}, which was not brought over`);
    else if (!person) refuse(w.report, 'foster', r.row, `names foster ${r.person}, who was not brought over`);
    else if (!r.started_on) refuse(w.report, 'foster', r.row, 'has no start date');
    else if (r.ended_on && r.ended_on < r.started_on) refuse(w.report, 'foster', r.row, 'ends before it starts');
    else {
      const fid = id ?? newId('fas');
      rows.push({ id: fid, animal_id: animal, person_id: person, started_on: r.started_on, ended_on: r.ended_on, notes: r.notes });
      w.report.counts.foster[id ? 'updated' : 'new'] += 1;
      done.push({ ext: r.ext, ark_id: fid, fingerprint: fp });
    }
  }
  await importFosterPlacements(w.db, w.org.id, rows, w.actor);
  await recordExternal(w.db, w.org.id, w.source, 'foster', done);
}

// ------------------------------------------------------------------------------------------------------------- donations

async function donations(w: WriteContext, records: MDonation[]): Promise<void> {
  const { fresh, changed } = await classify(w, 'donation', records);
  const personIds = await refs(
    w,
    'person',
    records.map((r) => r.person),
  );
  const animalIds = await refs(
    w,
    'animal',
    records.map((r) => r.animal),
  );
  const done: SourceLink[] = [];
  for (const { r, fp, id } of [...fresh.map((f) => ({ ...f, id: null as string | null })), ...changed]) {
    const donor = personIds.get(r.person);
    const amount = BigInt(r.amount_minor);
    if (!donor) refuse(w.report, 'donation', r.row, `names donor ${r.person}, who was not brought over`);
    else if (amount <= 0n) refuse(w.report, 'donation', r.row, 'has no amount above zero');
    else if (!r.date) refuse(w.report, 'donation', r.row, 'has no date');
    else {
      const animal = r.animal ? (animalIds.get(r.animal) ?? null) : null;
      const did = id ?? newId('don');
      if (id)
        await updateImportedDonation(
          w.db,
          w.org.id,
          { id, donor_id: donor, amount_minor: amount, date: r.date, animal_id: animal, notes: r.notes, payment_method: r.method },
          w.actor,
        );
      else
        await insertDonation(w.db, w.org.id, {
          id: did,
          donor_id: donor,
          amount_minor: amount,
          currency: w.org.currency,
          type: 'one-off',
          campaign_id: null,
          animal_id: animal,
          payment_method: r.method,
          gateway: null,
          gateway_transaction_id: null,
          date: r.date,
          notes: r.notes,
          source: 'import',
          source_id: `${w.source}:${r.ext}`,
        });
      if (!id) await audit(w.db, w.org.id, w.actor, 'import', 'donation', did, { donor_id: donor, amount_minor: amount.toString() });
      w.report.counts.donation[id ? 'updated' : 'new'] += 1;
      done.push({ ext: r.ext, ark_id: did, fingerprint: fp });
    }
  }
  await recordExternal(w.db, w.org.id, w.source, 'donation', done);
}

// ---------------------------------------------------------------------------------------------------------------- photos

/**
 * Photos: each downloaded (or taken from the source's own file store) and stored through the media module as the
 * animal's photo, shown on the public site like one staff approved. A photo on file for its source id is never fetched
 * again (a source that changes a photo gives it a new address or id). A download or a file that fails is refused for
 * its row (tried again by the next run) and the batch goes on. The dry run fetches nothing: it counts what it would.
 */
async function photos(w: WriteContext, records: MPhoto[]): Promise<void> {
  const known = await lookupExternal(
    w.db,
    w.org.id,
    w.source,
    'photo',
    records.map((r) => r.ext),
  );
  const animalIds = await refs(
    w,
    'animal',
    records.map((r) => r.animal),
  );
  const todo: { r: MPhoto; animal: string }[] = [];
  for (const r of records) {
    const animal = animalIds.get(r.animal);
    if (known.has(r.ext)) w.report.counts.photo.unchanged += 1;
    else if (!animal) refuse(w.report, 'photo', r.row, `names animal ${r.animal}, which was not brought over`);
    else if (!w.config) w.report.counts.photo.new += 1;
    else todo.push({ r, animal });
  }
  const config = w.config;
  if (!config || !todo.length) return;
  const got = await pooled(todo, photoFetchOptions.concurrency, async ({ r }) => {
    try {
      if (r.data !== null) return { data: Buffer.from(r.data, 'base64'), filename: r.filename };
      const f = await fetchPhoto(r.url ?? '', config.photoMaxBytes);
      return { data: f.data, filename: r.filename ?? f.filename };
    } catch (err) {
      return { error: (err as Error).message };
    }
  });
  const done: SourceLink[] = [];
  for (const [i, { r, animal }] of todo.entries()) {
    const g = got[i];
    if (!g || 'error' in g) {
      refuse(w.report, 'photo', r.row, `photo ${r.url ?? r.ext}: ${g?.error ?? 'not fetched'}`);
      continue;
    }
    try {
      const id = await addOutsidePhoto(w.db, config, w.org.id, w.actor, animal, { data: g.data, filename: g.filename, caption: null });
      await publishPhotos(w.db, w.org.id, w.actor, animal, [id]);
      w.report.counts.photo.new += 1;
      done.push({ ext: r.ext, ark_id: id, fingerprint: 'photo' });
    } catch (err) {
      refuse(w.report, 'photo', r.row, `photo ${r.url ?? r.ext}: ${reason(err)}`);
    }
  }
  await recordExternal(w.db, w.org.id, w.source, 'photo', done);
}

export type { Queryable };
