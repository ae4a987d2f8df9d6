import { parse } from 'csv-parse/sync';
import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, isoDate, minorUnits, sexOf, type Bundle, type MPerson, type MStay } from '../model.ts';

/**
 * Animal Shelter Manager 3. Its movement types (the `lksmovementtype` lookup, the same numbers in the CSV's
 * MOVEMENTTYPE column): which leave the shelter (an outcome), which keep the animal in care.
 */
export const ASM3_MOVEMENT_TYPES: Record<number, string> = {
  0: 'None',
  1: 'Adoption',
  2: 'Foster',
  3: 'Transfer',
  4: 'Escaped',
  5: 'Reclaimed',
  6: 'Stolen',
  7: 'Released To Wild',
  8: 'Retailer',
  9: 'Reservation',
  10: 'Cancelled Reservation',
  11: 'Trial Adoption',
  12: 'Permanent Foster',
  13: 'TNR',
};
const LEAVES = new Set([1, 3, 4, 5, 6, 7, 8, 11, 12, 13]);

export interface Movement {
  type: number;
  label: string;
  at: string | null;
  returned_at: string | null;
  person: string | null;
  notes: string | null;
  /** What was paid with the movement (ASM3 links a row's donation to its movement; its database keeps the total). */
  fee?: string | null;
}

/**
 * An animal's stays from its first intake, its movements and its death: each movement that leaves the shelter ends
 * the stay open at that time; its return date opens the next (a return from an adoption is an adoption return);
 * death ends the open stay. Foster movements keep the animal in care and become foster notes.
 */
export function staysOf(
  b: Bundle,
  animal: string,
  row: string,
  intake: { at: string | null; label: string; person: string | null },
  moves: Movement[],
  death: { at: string | null; label: string } | null,
): void {
  const out: MStay[] = [];
  let open: MStay | null = {
    ext: `${animal}#1`,
    row,
    animal,
    intake_at: intake.at,
    intake_label: intake.label || 'Unknown',
    outcome_at: null,
    outcome_label: null,
    source_person: intake.person,
    destination_person: null,
    adoption_return: false,
    notes: null,
  };
  out.push(open);
  const sorted = moves.filter((m) => m.at).sort((x, y) => (x.at ?? '').localeCompare(y.at ?? ''));
  for (const m of sorted) {
    if (m.type === 2 && m.person) {
      b.foster.push({
        ext: `${animal}/foster/${m.at}`,
        row,
        animal,
        person: m.person,
        started_on: m.at,
        ended_on: m.returned_at,
        notes: m.notes,
      });
      continue;
    }
    if (m.type === 2) {
      b.note.push({
        ext: `${animal}/foster/${m.at}`,
        row,
        animal,
        kind: 'foster',
        body:
          `Foster placement${m.person ? ` with ${m.person}` : ''} from ${m.at?.slice(0, 10)}` +
          `${m.returned_at ? ` to ${m.returned_at.slice(0, 10)}` : ''}${m.notes ? `: ${m.notes}` : ''}`,
        date: m.at,
      });
      continue;
    }
    if (!LEAVES.has(m.type) || !open) continue;
    open.outcome_at = m.at;
    open.outcome_label = m.label;
    open.destination_person = m.person;
    if (m.fee && m.fee !== '0') open.fee_minor = m.fee;
    open = null;
    if (m.returned_at && m.at && m.returned_at >= m.at) {
      open = {
        ext: `${animal}#${out.length + 1}`,
        row,
        animal,
        intake_at: m.returned_at,
        intake_label: `Returned from ${m.label}`,
        outcome_at: null,
        outcome_label: null,
        source_person: m.person,
        destination_person: null,
        adoption_return: m.type === 1 || m.type === 11,
        notes: m.notes,
      };
      out.push(open);
    }
  }
  if (death?.at && open && (!open.intake_at || death.at >= open.intake_at)) {
    open.outcome_at = death.at;
    open.outcome_label = death.label;
  }
  b.stay.push(...out);
}

const yes = (v: string | undefined) => !!v && !/^(0|n|no|false)?$/i.test(v.trim());

/**
 * ASM3's CSV import file: one row per animal and whatever goes with it (its person, a movement, a donation, a
 * vaccination, a medical treatment, a test, a log entry), the columns named as its csvimport module reads them.
 * Rows with the same ANIMALCODE are one animal; people are keyed by PERSONCODE, else email, else name and address.
 */
export function readAsm3Csv(text: string, order: 'dmy' | 'mdy' = 'mdy'): Bundle {
  let table: Record<string, string>[];
  try {
    table = parse(text, {
      bom: true,
      columns: (h: string[]) => h.map((c) => c.trim().toUpperCase()),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (err) {
    throw invalid({ content: [`is not readable CSV: ${(err as Error).message}`] });
  }
  const b = emptyBundle('asm3');
  const date = (v: string | undefined) => isoDate(v ?? '', order);
  const people = new Map<string, MPerson>();
  const animals = new Map<
    string,
    {
      intake: { at: string | null; label: string; person: string | null };
      moves: Movement[];
      death: { at: string | null; label: string } | null;
      row: string;
    }
  >();
  const seen = new Map<string, number>();
  const unique = (k: string) => {
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    return n === 1 ? k : `${k}#${n}`;
  };
  const person = (g: (f: string) => string, prefix: 'PERSON' | 'ORIGINALOWNER', row: string, roles: string[]): string | null => {
    const first = g(`${prefix}FIRSTNAME`) || g(`${prefix}FORENAMES`);
    let last = g(`${prefix}LASTNAME`) || g(`${prefix}SURNAME`);
    let firstName = first;
    if (!first && !last && g(`${prefix}NAME`)) {
      const parts = g(`${prefix}NAME`).split(/\s+/);
      last = parts.pop() ?? '';
      firstName = parts.join(' ');
    }
    if (!firstName && !last) return null;
    const email = g(`${prefix}EMAIL`) || g(`${prefix}EMAILADDRESS`) || null;
    const address = g(`${prefix}ADDRESS`);
    const ext = g(`${prefix}CODE`) || (email ? email.toLowerCase() : `${firstName} ${last}|${address}`.toLowerCase());
    const existing = people.get(ext);
    if (existing) {
      existing.roles = [...new Set([...existing.roles, ...roles])];
      return ext;
    }
    const city = g(`${prefix}CITY`) || g(`${prefix}TOWN`);
    const p: MPerson = {
      ext,
      row,
      first_name: firstName,
      last_name: last,
      email,
      phone:
        g(`${prefix}CELLPHONE`) ||
        g(`${prefix}MOBILETELEPHONE`) ||
        g(`${prefix}HOMEPHONE`) ||
        g(`${prefix}HOMETELEPHONE`) ||
        g(`${prefix}WORKPHONE`) ||
        null,
      address:
        address && city
          ? {
              line1: address.split('\n')[0] ?? address,
              city,
              state: g(`${prefix}STATE`) || g(`${prefix}COUNTY`) || null,
              postalCode: g(`${prefix}ZIPCODE`) || g(`${prefix}POSTCODE`) || null,
              country: '',
            }
          : null,
      roles,
    };
    people.set(ext, p);
    b.person.push(p);
    return ext;
  };
  table.forEach((rec, i) => {
    const row = `line ${i + 2}`;
    const g = (f: string) => (rec[f] ?? '').trim();
    const roles: string[] = [];
    if (yes(rec.PERSONFOSTERER)) roles.push('foster');
    if (yes(rec.PERSONDONOR) || (g('DONATIONAMOUNT') && minorUnits(g('DONATIONAMOUNT')) !== '0')) roles.push('donor');
    const moveType = Number(g('MOVEMENTTYPE') || '1');
    if (g('MOVEMENTDATE') && (moveType === 1 || moveType === 11)) roles.push('adopter');
    const who = person(g, 'PERSON', row, roles);
    const owner = person(g, 'ORIGINALOWNER', row, []);
    let animal: string | null = null;
    if (g('ANIMALNAME') || g('ANIMALCODE')) {
      animal = g('ANIMALCODE') || `${g('ANIMALNAME')}|${g('ANIMALENTRYDATE')}`;
      if (!animals.has(animal)) {
        const breed = [g('ANIMALBREED1'), g('ANIMALBREED2')].filter((x, j, a) => x && a.indexOf(x) === j).join(' / ');
        const image = g('ANIMALIMAGE');
        b.animal.push({
          ext: animal,
          row,
          name: g('ANIMALNAME') || animal,
          species: g('ANIMALSPECIES') || g('ANIMALTYPE'),
          breed: breed || null,
          colour: g('ANIMALCOLOR') || null,
          sex: sexOf(g('ANIMALSEX')),
          date_of_birth: date(g('ANIMALDOB')),
          intake_date: date(g('ANIMALENTRYDATE')),
          microchip: g('ANIMALMICROCHIP') || null,
          notes: [g('ANIMALCOMMENTS') || g('ANIMALDESCRIPTION'), g('ANIMALHIDDENDETAILS')].filter(Boolean).join('\n\n') || null,
          photos: /^https?:\/\//.test(image) ? [image] : [],
        });
        const label =
          g('ANIMALENTRYTYPE') ||
          g('ANIMALENTRYCATEGORY') ||
          (yes(rec.ANIMALTRANSFER) ? 'Transfer from Other Shelter' : '') ||
          g('ANIMALREASONFORENTRY') ||
          'Unknown';
        const died = date(g('ANIMALDECEASEDDATE'));
        animals.set(animal, {
          row,
          intake: { at: date(g('ANIMALENTRYDATE')) ?? date(g('ANIMALDOB')), label, person: owner },
          moves: [],
          death: died ? { at: died, label: yes(rec.ANIMALEUTHANIZED) ? 'Euthanized' : g('ANIMALDECEASEDREASON') || 'Died' } : null,
        });
        if (g('ANIMALWEIGHT') && Number(g('ANIMALWEIGHT')) > 0)
          b.weight.push({
            ext: `${animal}/weight`,
            row,
            animal,
            weight: Number(g('ANIMALWEIGHT')),
            unit: 'kg',
            measured_on: date(g('ANIMALENTRYDATE')),
          });
      }
    }
    if (animal && g('MOVEMENTDATE')) {
      animals.get(animal)?.moves.push({
        type: moveType,
        label: ASM3_MOVEMENT_TYPES[moveType] ?? `Movement ${moveType}`,
        at: date(g('MOVEMENTDATE')),
        returned_at: date(g('MOVEMENTRETURNDATE')),
        person: who,
        notes: g('MOVEMENTCOMMENTS') || null,
        fee: minorUnits(g('DONATIONAMOUNT')),
      });
    }
    const amount = minorUnits(g('DONATIONAMOUNT'));
    if (amount && amount !== '0') {
      if (!who) b.refused.push({ kind: 'donation', row, reason: 'has a donation but no person to give it' });
      else
        b.donation.push({
          ext: unique(`${who}|${g('DONATIONDATE')}|${amount}|${g('DONATIONTYPE')}`),
          row,
          person: who,
          animal,
          amount_minor: amount,
          date: date(g('DONATIONDATE')),
          method: /cheque|check/i.test(g('DONATIONPAYMENT'))
            ? 'check'
            : /cash/i.test(g('DONATIONPAYMENT'))
              ? 'cash'
              : /card/i.test(g('DONATIONPAYMENT'))
                ? 'card'
                : /bank|transfer|ach/i.test(g('DONATIONPAYMENT'))
                  ? 'bank_transfer'
                  : 'other',
          notes: [g('DONATIONTYPE'), g('DONATIONCOMMENTS')].filter(Boolean).join(': ') || null,
        });
    }
    if (animal && g('VACCINATIONTYPE')) {
      const given = date(g('VACCINATIONGIVENDATE'));
      b.medical.push({
        ext: unique(`${animal}/vacc/${g('VACCINATIONTYPE')}/${given ?? g('VACCINATIONDUEDATE')}`),
        row,
        animal,
        kind: 'vaccine',
        name: g('VACCINATIONTYPE'),
        given_at: given,
        next_due_on: given ? null : date(g('VACCINATIONDUEDATE')),
        dose: null,
        lot: g('VACCINATIONBATCHNUMBER') || null,
        manufacturer: g('VACCINATIONMANUFACTURER') || null,
        rabies_tag: g('VACCINATIONRABIESTAG') || null,
        result: null,
        notes: g('VACCINATIONCOMMENTS') || null,
      });
    }
    if (animal && g('MEDICALNAME')) {
      const given = date(g('MEDICALGIVENDATE'));
      b.medical.push({
        ext: unique(`${animal}/med/${g('MEDICALNAME')}/${given}`),
        row,
        animal,
        kind: 'treatment',
        name: g('MEDICALNAME'),
        given_at: given,
        next_due_on: null,
        dose: g('MEDICALDOSAGE') || null,
        lot: null,
        manufacturer: null,
        rabies_tag: null,
        result: null,
        notes: g('MEDICALCOMMENTS') || null,
      });
    }
    if (animal && g('TESTNAME')) {
      const given = date(g('TESTPERFORMEDDATE'));
      const r = g('TESTRESULT').toLowerCase();
      b.medical.push({
        ext: unique(`${animal}/test/${g('TESTNAME')}/${given ?? g('TESTDUEDATE')}`),
        row,
        animal,
        kind: 'test',
        name: g('TESTNAME'),
        given_at: given,
        next_due_on: given ? null : date(g('TESTDUEDATE')),
        dose: null,
        lot: null,
        manufacturer: null,
        rabies_tag: null,
        result: r.startsWith('neg') ? 'negative' : r.startsWith('pos') ? 'positive' : r ? 'unknown' : null,
        notes: g('TESTCOMMENTS') || null,
      });
    }
    if (animal && g('LOGCOMMENTS')) {
      b.note.push({
        ext: unique(`${animal}/log/${g('LOGDATE')}`),
        row,
        animal,
        kind: 'general',
        body: g('LOGTYPE') ? `${g('LOGTYPE')}: ${g('LOGCOMMENTS')}` : g('LOGCOMMENTS'),
        date: date(g('LOGDATE')),
      });
    }
    if (!animal && !who && !owner)
      b.refused.push({ kind: 'animal', row, reason: 'has neither an animal (ANIMALNAME, ANIMALCODE) nor a person' });
  });
  for (const [ext, a] of animals) staysOf(b, ext, a.row, a.intake, a.moves, a.death);
  return b;
}
