import pg from 'pg';
import { kx, onClient, type RawBuilder, sql } from '../../../platform/db/kysely.ts';
import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, sexOf, type Bundle } from '../model.ts';
import { ASM3_MOVEMENT_TYPES, staysOf, type Movement } from './asm3.ts';

/** A record of the ASM3 database (its own schema, not Ark's), column name → value. */
type AsmRecord = Record<string, unknown>;
const s = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : v instanceof Date
      ? v.toISOString()
      : typeof v === 'string'
        ? v.trim()
        : typeof v === 'number' || typeof v === 'bigint'
          ? String(v)
          : JSON.stringify(v);
/** ASM3 keeps dates as timestamps without a zone; the date is what the shelter wrote. */
const d = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    const iso = `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`;
    return v.getFullYear() < 1901 ? null : iso;
  }
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(s(v));
  return m?.[1] ?? null;
};

/**
 * Reads an ASM3 PostgreSQL database directly, read-only (one READ ONLY transaction; nothing is written there): its
 * `animal`, `owner`, `adoption` (every movement), `animalvaccination`, `animalmedical`, `ownerdonation`, `log`,
 * `media` and `dbfs` (photos) tables with the lookups `species`, `breed`, `basecolour`, `entryreason`, `lksmovementtype`,
 * `vaccinationtype`, `donationtype` and `deathreason`. Animals are known by their shelter code (as in ASM3's CSV), people by their
 * owner code (else `id:<ID>`), so a move from the CSV export and one from the database find the same records.
 * `schema` reads the tables from another schema than the connection's default.
 */
export async function readAsm3Database(url: string, schema?: string): Promise<Bundle> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw invalid({ database: [`could not be reached: ${(err as Error).message}`] });
  }
  try {
    await client.query('BEGIN READ ONLY');
    // ASM3's tables are not Ark's: their statements are SQL text, any value in them bound by the `sql` tag.
    const k = kx(onClient(client));
    if (schema) {
      if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw invalid({ schema: ['is not a schema name'] });
      // the schema bound as a value (as SET folds an unquoted name: to lower case), for this transaction only
      await sql`SELECT set_config('search_path', ${schema.toLowerCase()}, true)`.execute(k);
    }
    const q = async (statement: RawBuilder<AsmRecord>) => (await statement.execute(k)).rows;
    const b = emptyBundle('asm3');
    const people = await q(sql`SELECT o.* FROM owner o ORDER BY o.id`);
    const personExt = new Map<number, string>();
    for (const o of people) {
      const ext = s(o.ownercode) || `id:${s(o.id)}`;
      personExt.set(Number(o.id), ext);
      const roles = [
        [o.isfosterer, 'foster'],
        [o.isdonor, 'donor'],
        [o.isvolunteer, 'volunteer'],
        [o.isadopter, 'adopter'],
        [o.isstaff, 'staff'],
        [o.isvet, 'vet'],
        [o.isdriver, 'driver'],
        [o.ishomechecker, 'home_checker'],
        [o.issponsor, 'sponsor'],
      ]
        .filter(([f]) => Number(f) === 1)
        .map(([, r]) => r as string);
      const address = s(o.owneraddress);
      b.person.push({
        ext,
        row: `owner ${s(o.id)}`,
        first_name: s(o.ownerforenames),
        last_name: s(o.ownersurname) || s(o.ownername),
        email: s(o.emailaddress) || null,
        phone: s(o.mobiletelephone) || s(o.hometelephone) || s(o.worktelephone) || null,
        address:
          address && s(o.ownertown)
            ? {
                line1: address.split('\n')[0] ?? address,
                city: s(o.ownertown),
                state: s(o.ownercounty) || null,
                postalCode: s(o.ownerpostcode) || null,
                country: '',
              }
            : null,
        roles,
      });
    }
    const animals = await q(sql`
      SELECT a.*, sp.speciesname, b1.breedname AS breed1, b2.breedname AS breed2, bc.basecolour AS colourname,
             er.reasonname, dr.reasonname AS deathreasonname
        FROM animal a
        LEFT JOIN species sp ON sp.id = a.speciesid
        LEFT JOIN breed b1 ON b1.id = a.breedid
        LEFT JOIN breed b2 ON b2.id = a.breed2id AND a.crossbreed = 1
        LEFT JOIN basecolour bc ON bc.id = a.basecolourid
        LEFT JOIN entryreason er ON er.id = a.entryreasonid
        LEFT JOIN deathreason dr ON dr.id = a.ptsreasonid
       WHERE a.nonshelteranimal = 0
       ORDER BY a.id`);
    const animalExt = new Map<number, string>();
    for (const a of animals) {
      const ext = s(a.sheltercode) || `id:${s(a.id)}`;
      animalExt.set(Number(a.id), ext);
      b.animal.push({
        ext,
        row: `animal ${s(a.id)}`,
        name: s(a.animalname),
        species: s(a.speciesname),
        breed: s(a.breedname) || [s(a.breed1), s(a.breed2)].filter(Boolean).join(' / ') || null,
        colour: s(a.colourname) || null,
        sex: Number(a.sex) === 0 ? 'female' : Number(a.sex) === 1 ? 'male' : sexOf(''),
        date_of_birth: d(a.dateofbirth),
        intake_date: d(a.datebroughtin),
        microchip: Number(a.identichipped) === 1 ? s(a.identichipnumber) || null : null,
        notes: [s(a.animalcomments), s(a.hiddenanimaldetails)].filter(Boolean).join('\n\n') || null,
        photos: [],
      });
      if (Number(a.weight) > 0)
        b.weight.push({
          ext: `${ext}/weight`,
          row: `animal ${s(a.id)}`,
          animal: ext,
          weight: Number(a.weight),
          unit: 'kg',
          measured_on: d(a.datebroughtin),
        });
    }
    const moves = new Map<number, Movement[]>();
    for (const m of await q(
      sql`SELECT m.*, t.movementtype AS typename FROM adoption m LEFT JOIN lksmovementtype t ON t.id = m.movementtype ORDER BY m.id`,
    )) {
      const l = moves.get(Number(m.animalid)) ?? [];
      l.push({
        type: Number(m.movementtype),
        label: s(m.typename) || ASM3_MOVEMENT_TYPES[Number(m.movementtype)] || `Movement ${s(m.movementtype)}`,
        at: d(m.movementdate),
        returned_at: d(m.returndate),
        person: m.ownerid ? (personExt.get(Number(m.ownerid)) ?? null) : null,
        notes: s(m.comments) || null,
        // The movement's Donation: ASM3's total (cents) of the payments linked to it, kept up to date by ASM3 itself.
        fee: Number(m.donation) > 0 ? String(Math.trunc(Number(m.donation))) : null,
      });
      moves.set(Number(m.animalid), l);
    }
    for (const a of animals) {
      const ext = animalExt.get(Number(a.id)) ?? '';
      const label = Number(a.istransfer) === 1 ? 'Transfer from Other Shelter' : s(a.reasonname) || 'Unknown';
      const source =
        Number(a.broughtinbyownerid) > 0
          ? (personExt.get(Number(a.broughtinbyownerid)) ?? null)
          : Number(a.originalownerid) > 0
            ? (personExt.get(Number(a.originalownerid)) ?? null)
            : null;
      const died = d(a.deceaseddate);
      staysOf(
        b,
        ext,
        `animal ${s(a.id)}`,
        { at: d(a.datebroughtin), label, person: source },
        moves.get(Number(a.id)) ?? [],
        died
          ? {
              at: died,
              label: Number(a.puttosleep) === 1 ? 'Euthanized' : Number(a.isdoa) === 1 ? 'Dead on arrival' : s(a.deathreasonname) || 'Died',
            }
          : null,
      );
    }
    for (const v of await q(
      sql`SELECT v.*, t.vaccinationtype AS typename FROM animalvaccination v
         LEFT JOIN vaccinationtype t ON t.id = v.vaccinationid ORDER BY v.id`,
    )) {
      const animal = animalExt.get(Number(v.animalid));
      if (!animal) continue;
      const given = d(v.dateofvaccination);
      b.medical.push({
        ext: `vacc:${s(v.id)}`,
        row: `animalvaccination ${s(v.id)}`,
        animal,
        kind: 'vaccine',
        name: s(v.typename) || 'Vaccination',
        given_at: given,
        next_due_on: given ? null : d(v.daterequired),
        dose: null,
        lot: s(v.batchnumber) || null,
        manufacturer: s(v.manufacturer) || null,
        rabies_tag: s(v.rabiestag) || null,
        result: null,
        notes: s(v.comments) || null,
      });
    }
    for (const m of await q(sql`SELECT * FROM animalmedical ORDER BY id`)) {
      const animal = animalExt.get(Number(m.animalid));
      if (!animal) continue;
      b.medical.push({
        ext: `medical:${s(m.id)}`,
        row: `animalmedical ${s(m.id)}`,
        animal,
        kind: 'treatment',
        name: s(m.treatmentname),
        given_at: d(m.startdate),
        next_due_on: null,
        dose: s(m.dosage) || null,
        lot: null,
        manufacturer: null,
        rabies_tag: null,
        result: null,
        notes: s(m.comments) || null,
      });
    }
    for (const g of await q(sql`SELECT g.*, t.donationname AS typename, p.paymentname FROM ownerdonation g
                                LEFT JOIN donationtype t ON t.id = g.donationtypeid
                                LEFT JOIN donationpayment p ON p.id = g.donationpaymentid ORDER BY g.id`)) {
      const person = personExt.get(Number(g.ownerid));
      if (!person) continue;
      const pay = s(g.paymentname).toLowerCase();
      b.donation.push({
        ext: `donation:${s(g.id)}`,
        row: `ownerdonation ${s(g.id)}`,
        person,
        animal: g.animalid ? (animalExt.get(Number(g.animalid)) ?? null) : null,
        // ASM3 keeps money as integer cents.
        amount_minor: String(BigInt(Math.trunc(Number(g.donation ?? 0)))),
        date: d(g.date),
        method: /cheque|check/.test(pay)
          ? 'check'
          : /cash/.test(pay)
            ? 'cash'
            : /card/.test(pay)
              ? 'card'
              : /bank|transfer/.test(pay)
                ? 'bank_transfer'
                : 'other',
        notes: [s(g.typename), s(g.comments)].filter(Boolean).join(': ') || null,
      });
    }
    // Log entries of animals (LinkType 0).
    for (const l of await q(
      sql`SELECT l.*, t.logtypename FROM log l LEFT JOIN logtype t ON t.id = l.logtypeid WHERE l.linktype = 0 ORDER BY l.id`,
    )) {
      const animal = animalExt.get(Number(l.linkid));
      if (!animal || !s(l.comments)) continue;
      b.note.push({
        ext: `log:${s(l.id)}`,
        row: `log ${s(l.id)}`,
        animal,
        kind: 'general',
        body: s(l.logtypename) ? `${s(l.logtypename)}: ${s(l.comments)}` : s(l.comments),
        date: d(l.date),
      });
    }
    // Photos: `media` rows of animals (LinkTypeID 0) with an image type, preferred (WebsitePhoto) first; their bytes are in
    // `dbfs` (DBFSID), base64 in `Content` when ASM3 keeps its files in the database (URL empty or `base64:`). Files
    // kept on ASM3's disk (`file:`) or in S3 (`s3:`) are not in the database: each is refused with that reason.
    for (const m of await q(
      sql`SELECT m.id, m.linkid, m.medianame, m.mediamimetype, f.url, f.content FROM media m
         LEFT JOIN dbfs f ON f.id = m.dbfsid
        WHERE m.linktypeid = 0 AND lower(coalesce(m.mediamimetype, '')) LIKE 'image/%'
        ORDER BY m.linkid, m.websitephoto DESC, m.id`,
    )) {
      const animal = animalExt.get(Number(m.linkid));
      if (!animal) continue;
      const url = s(m.url);
      const row = `media ${s(m.id)}`;
      if (url && !url.startsWith('base64:'))
        b.refused.push({ kind: 'photo', row, reason: `kept outside ASM3's database (${url.split(':')[0]}:), not readable here` });
      else if (!s(m.content)) b.refused.push({ kind: 'photo', row, reason: 'has no file content in dbfs' });
      else
        b.photo.push({
          ext: `media:${s(m.id)}`,
          row,
          animal,
          url: null,
          data: s(m.content).replace(/\s+/g, ''),
          filename: s(m.medianame) || null,
        });
    }
    await client.query('ROLLBACK');
    return b;
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') throw invalid({ database: [`is not an ASM3 database: ${(err as Error).message}`] });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
