import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, isoDate, sexOf, type Bundle, type MMedical, type MPerson } from '../model.ts';
import { readTable } from './csv.ts';

const ROLE_OF: Record<string, string> = {
  foster: 'foster',
  donor: 'donor',
  volunteer: 'volunteer',
  employee: 'staff',
  'medical personnel': 'vet',
  'operation by': 'vet',
  adopter: 'adopter',
};

/**
 * PetPoint's standard reports, as its users export them: "Animal: Intake with Results (Extended)" (one row per
 * intake, with its outcome; `Animal #` names the animal) and "Person by Association (Extended)" (`Person ID`). The
 * files are told apart by their headers. Each intake row is one stay; the animal is described by its first row.
 */
export async function readPetPoint(files: Record<string, string>, order: 'dmy' | 'mdy'): Promise<Bundle> {
  const b = emptyBundle('petpoint');
  const date = (v: string) => isoDate(v, order);
  const people = new Map<string, MPerson>();
  const byName = new Map<string, string>();
  const intakes: { line: string; get: (h: string) => string }[] = [];
  const medical: MMedical[] = [];
  const seenMedical = new Map<string, number>();
  const addMedical = (m: Omit<MMedical, 'ext' | 'dose' | 'lot' | 'manufacturer' | 'rabies_tag'>) => {
    const key = `${m.animal}/${m.kind}/${m.name}/${m.given_at ?? m.next_due_on ?? ''}`;
    const n = (seenMedical.get(key) ?? 0) + 1;
    seenMedical.set(key, n);
    medical.push({ ...m, ext: n > 1 ? `${key}#${n}` : key, dose: null, lot: null, manufacturer: null, rabies_tag: null });
  };
  const headerLine = (cells: string[]) => cells.some((c) => /^(animal #|animalid|person id)$/i.test(c.trim()));
  for (const [name, content] of Object.entries(files)) {
    const t = await readTable(name, content, headerLine);
    const has = (h: string) => t.header.some((x) => x.trim().toLowerCase() === h.toLowerCase());
    const result = (v: string) => (/^neg/i.test(v) ? 'negative' : /^pos/i.test(v) ? 'positive' : v ? 'unknown' : null);
    if (has('Animal #') && (has('Vaccination') || has('Test')) && !has('Intake Date')) {
      // "Medical: Vaccine Express" / "Medical: Tests Express" in their two-row layout: each record is two lines, the
      // first with the animal, the vaccine (and its re-vaccination date) or the test; the second with the date given
      // under `Status` (and, for a test, the result under `Test For`). Title lines above the header and a repeated
      // header are skipped.
      const rows = t.rows.filter((r) => r.get('Animal #') !== 'Animal #' && r.get('Status') !== 'Status');
      const vacc = has('Vaccination');
      for (let i = 0; i < rows.length; i += 2) {
        const [first, second] = [rows[i], rows[i + 1]];
        if (!first) break;
        const line = `${name} line ${first.line}`;
        if (!second) {
          b.refused.push({ kind: 'medical', row: line, reason: 'has no second line (the date given)' });
          break;
        }
        const animal = first.get('Animal #');
        const what = first.get(vacc ? 'Vaccination' : 'Test');
        if (!animal || !what) {
          b.refused.push({ kind: 'medical', row: line, reason: 'has no animal or no vaccine or test name' });
          continue;
        }
        addMedical({
          row: line,
          animal,
          kind: vacc ? 'vaccine' : 'test',
          name: what,
          given_at: date(second.get('Status')),
          next_due_on: vacc ? date(first.get('Re-Vac Date/Time')) : null,
          result: vacc ? null : result(second.get('Test For')),
          notes: null,
        });
      }
    } else if (has('AnimalID') && has('TestForCondition')) {
      // The tests report in its one-row layout: AnimalID, ItemStatusDateTime, TestForCondition, Result.
      for (const r of t.rows) {
        if (r.get('AnimalID') === 'AnimalID' || !r.get('AnimalID')) continue;
        addMedical({
          row: `${name} line ${r.line}`,
          animal: r.get('AnimalID'),
          kind: 'test',
          name: r.get('TestForCondition') || 'Test',
          given_at: date(r.get('ItemStatusDateTime')),
          next_due_on: null,
          result: result(r.get('Result')),
          notes: null,
        });
      }
    } else if (has('Animal #')) intakes.push(...t.rows.map((r) => ({ line: `${name} line ${r.line}`, get: r.get })));
    else if (has('Person ID')) {
      for (const r of t.rows) {
        const id = r.get('Person ID');
        if (!id || id === 'Person ID') continue;
        const role = ROLE_OF[r.get('Association').toLowerCase()];
        const known = people.get(id);
        if (known) {
          if (role && !known.roles.includes(role)) known.roles.push(role);
          continue;
        }
        const p: MPerson = {
          ext: id,
          row: `${name} line ${r.line}`,
          first_name: r.get('Name First'),
          last_name: r.get('Name Last'),
          email: r.get('Email') || null,
          phone: r.get('Phone Number') || null,
          address:
            r.get('Street Address') && r.get('City')
              ? {
                  line1: r.get('Street Address'),
                  city: r.get('City'),
                  state: r.get('Province') || r.get('State') || null,
                  postalCode: r.get('Postal Code') || r.get('Zip Code') || null,
                  country: '',
                }
              : null,
          roles: role ? [role] : [],
        };
        people.set(id, p);
        byName.set(`${p.first_name} ${p.last_name}`.trim().toLowerCase(), id);
        b.person.push(p);
      }
    } else
      throw invalid({
        files: [
          `${name} is none of PetPoint's intake-with-results (Animal #), person (Person ID), vaccine (Animal #, Vaccination) ` +
            'or tests (Animal #, Test) reports',
        ],
      });
  }
  // People named only on an intake or outcome row (admitter, adopter, receiving agency): by name, else made from the row.
  const named = (
    full: string,
    row: string,
    contact: { email: string; phone: string; street: string; city: string; state: string; postal: string },
    role: string | null,
  ) => {
    const n = full.trim();
    if (!n) return null;
    const key = n.toLowerCase();
    const id = byName.get(key) ?? `name:${key}`;
    let p = people.get(id);
    if (!p) {
      const bits = n.split(/\s+/);
      p = {
        ext: id,
        row,
        first_name: bits.length > 1 ? (bits[0] ?? '') : '',
        last_name: bits.length > 1 ? bits.slice(1).join(' ') : n,
        email: contact.email || null,
        phone: contact.phone || null,
        address:
          contact.street && contact.city
            ? { line1: contact.street, city: contact.city, state: contact.state || null, postalCode: contact.postal || null, country: '' }
            : null,
        roles: [],
      };
      people.set(id, p);
      byName.set(key, id);
      b.person.push(p);
    }
    if (role && !p.roles.includes(role)) p.roles.push(role);
    return id;
  };
  const seen = new Set<string>();
  const sorted = intakes
    .filter((r) => r.get('Animal #') && r.get('Animal #') !== 'Animal #')
    .sort((x, y) => (date(x.get('Intake Date')) ?? '').localeCompare(date(y.get('Intake Date')) ?? ''));
  const lastOutcome = new Map<string, string>();
  for (const r of sorted) {
    const animal = r.get('Animal #');
    if (!seen.has(animal)) {
      seen.add(animal);
      b.animal.push({
        ext: animal,
        row: r.line,
        name: r.get('Animal Name') || animal,
        species: r.get('Species'),
        breed: [r.get('Primary Breed'), r.get('Secondary Breed')].filter(Boolean).join(' / ') || null,
        colour: r.get('Primary Colour') || r.get('Primary Color') || null,
        sex: sexOf(r.get('Gender')),
        date_of_birth: date(r.get('Date Of Birth')),
        intake_date: date(r.get('Intake Date')),
        microchip: r.get('Microchip Number') || null,
        notes:
          [
            r.get('Animal Description'),
            r.get('Distinguishing Markings') && `Markings: ${r.get('Distinguishing Markings')}`,
            r.get('ARN') && `ARN: ${r.get('ARN')}`,
          ]
            .filter(Boolean)
            .join('\n\n') || null,
        photos: [],
      });
    }
    const admitter = named(
      r.get('Admitter'),
      r.line,
      {
        email: r.get("Admitter's Email"),
        phone: r.get("Admitter's Cell Phone") || r.get("Admitter's Home Phone"),
        street: '',
        city: '',
        state: '',
        postal: '',
      },
      null,
    );
    const outType = r.get('Outcome Type');
    const outPerson =
      named(
        r.get('Outcome Person Name'),
        r.line,
        {
          email: r.get('Out Email'),
          phone: r.get('Out Cell Phone') || r.get('Out Home Phone'),
          street: r.get('Out Street Address'),
          city: r.get('Out City'),
          state: r.get('Out Province'),
          postal: r.get('Out Postal Code'),
        },
        /adopt/i.test(outType) ? 'adopter' : null,
      ) ??
      named(
        r.get('Outcome Agency Name'),
        r.line,
        {
          email: r.get('Agency Email'),
          phone: r.get('Agency Cell Number') || r.get('Agency Home Phone'),
          street: r.get('Agency Street Address'),
          city: r.get('Agency City'),
          state: r.get('Agency Province'),
          postal: r.get('Agency Postal Code'),
        },
        null,
      );
    const intakeType = r.get('Intake Type') || 'Unknown';
    const outAt = date(r.get('Outcome Date'));
    b.stay.push({
      ext: `${animal}@${r.get('Intake Date')}`,
      row: r.line,
      animal,
      intake_at: date(r.get('Intake Date')),
      intake_label: intakeType,
      outcome_at: outAt,
      outcome_label: outAt ? outType || 'Unknown' : null,
      source_person: admitter,
      destination_person: outPerson,
      adoption_return: /^return/i.test(intakeType) && /adopt/i.test(lastOutcome.get(animal) ?? ''),
      notes:
        [
          r.get('Intake Subtype') && `Intake subtype: ${r.get('Intake Subtype')}`,
          r.get('Reason') && `Reason: ${r.get('Reason')}`,
          r.get('Outcome Subtype') && `Outcome subtype: ${r.get('Outcome Subtype')}`,
        ]
          .filter(Boolean)
          .join('; ') || null,
    });
    if (outAt) lastOutcome.set(animal, outType);
  }
  // Medical records name animals by `Animal #`; one whose animal no intake row brought is refused by the run.
  b.medical.push(...medical);
  return b;
}
