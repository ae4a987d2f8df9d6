import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, isoDate, sexOf, type Bundle, type MPerson } from '../model.ts';
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
  for (const [name, content] of Object.entries(files)) {
    const t = await readTable(name, content);
    const has = (h: string) => t.header.some((x) => x.trim().toLowerCase() === h.toLowerCase());
    if (has('Animal #')) intakes.push(...t.rows.map((r) => ({ line: `${name} line ${r.line}`, get: r.get })));
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
      throw invalid({ files: [`${name} is neither a PetPoint intake-with-results report (Animal #) nor a person report (Person ID)`] });
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
  return b;
}
