import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, sexOf, type Bundle, type MFoster, type MStay } from '../model.ts';

type Json = Record<string, unknown>;
const str = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
/** Shelterluv's times are Unix seconds, as a number or a string. */
const unixDate = (v: unknown): string | null => {
  const n = Number(str(v));
  return str(v) && Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : null;
};
const list = (v: unknown, key: string): Json[] => {
  if (Array.isArray(v)) return v as Json[];
  if (v && typeof v === 'object' && Array.isArray((v as Json)[key])) return (v as Json)[key] as Json[];
  return [];
};

/**
 * Shelterluv's API v1 answers saved as files: `GET /api/v1/animals` (`{"animals": [...]}`: ID, Internal-ID, Name,
 * Type, Sex, Breed, Color, Pattern, DOBUnixTime, LastIntakeUnixTime, Microchips[{Id, Issuer, ImplantUnixTime}], Photos,
 * CurrentWeightPounds, Description), `GET /api/v1/people` (`{"people": [...]}`: ID, Internal-ID, Firstname, Lastname,
 * Street, Apartment, City, State, Zip, Email, Phone, Associated, Animal_ids) and `GET /api/v1/events` (also
 * `/animals/{id}/events`; `{"events": [...]}`: Type such as Intake.Stray, Outcome.Adoption, Outcome.Foster or
 * Intake.FosterReturn, Subtype, Time in Unix seconds as a string, User, AssociatedRecords [{Type: Animal|Person, Id}]
 * naming the animal and the person by Internal-ID). Each answer is wrapped with success, has_more and total_count.
 * Several pages of one kind may be sent as several files. Stays are the animal's intake and outcome events in time
 * order; an animal without an intake event has one stay from its last intake. A person who takes an animal out to
 * foster (with a person named) gets the foster role.
 */
export function readShelterluv(files: Record<string, string>): Bundle {
  const b = emptyBundle('shelterluv');
  const animals: Json[] = [];
  const people: Json[] = [];
  const events: Json[] = [];
  for (const [name, content] of Object.entries(files)) {
    let doc: unknown;
    try {
      doc = JSON.parse(content);
    } catch (err) {
      throw invalid({ files: [`${name} is not JSON: ${(err as Error).message}`] });
    }
    const a = list(doc, 'animals');
    const p = list(doc, 'people');
    const e = list(doc, 'events');
    if (
      !Array.isArray(doc) &&
      !a.length &&
      !p.length &&
      !e.length &&
      !(doc && typeof doc === 'object' && ('animals' in doc || 'people' in doc || 'events' in doc))
    )
      throw invalid({ files: [`${name} holds none of Shelterluv's animals, people or events`] });
    if (Array.isArray(doc)) {
      // A bare list: told apart by its name, else by its first record.
      const first = (doc[0] ?? {}) as Json;
      if (/event/i.test(name) || 'AssociatedRecords' in first) events.push(...(doc as Json[]));
      else if (/people|person/i.test(name) || 'Firstname' in first || 'FirstName' in first) people.push(...(doc as Json[]));
      else animals.push(...(doc as Json[]));
    } else {
      animals.push(...a);
      people.push(...p);
      events.push(...e);
    }
  }
  const idOf = (r: Json) => str(r['Internal-ID']) || str(r.ID);
  const personRoles = new Map<string, Set<string>>();
  people.forEach((p, i) => {
    const ext = idOf(p);
    if (!ext) {
      b.refused.push({ kind: 'person', row: `person ${i + 1}`, reason: 'has no ID' });
      return;
    }
    const roles = new Set<string>();
    personRoles.set(ext, roles);
    // `Street` and `Apartment` are two fields in Shelterluv; Ark's address has one street line.
    const street = [str(p.Street), str(p.Apartment)].filter(Boolean).join(', ');
    const city = str(p.City);
    b.person.push({
      ext,
      row: `person ${ext}`,
      first_name: str(p.Firstname ?? p.FirstName),
      last_name: str(p.Lastname ?? p.LastName),
      email: str(p.Email) || null,
      phone: str(p.Phone) || null,
      address: street && city ? { line1: street, city, state: str(p.State) || null, postalCode: str(p.Zip) || null, country: '' } : null,
      roles: [],
    });
  });
  const known = new Set<string>();
  for (const a of animals) {
    const ext = idOf(a);
    if (!ext) continue;
    known.add(ext);
    const chips = Array.isArray(a.Microchips) ? (a.Microchips as Json[]) : [];
    const photos = Array.isArray(a.Photos)
      ? (a.Photos as unknown[])
          .map(str)
          .filter((u) => /^https?:\/\//.test(u) && !/default_images|\/default_[\w-]+\.(png|jpe?g|gif)$/i.test(u))
      : [];
    const colour = [str(a.Color), str(a.Pattern)].filter(Boolean).join(' ');
    b.animal.push({
      ext,
      row: `animal ${ext}`,
      name: str(a.Name) || ext,
      species: str(a.Type),
      breed: str(a.Breed).replace(/\s*\/\s*/g, ' / ') || null,
      colour: colour || null,
      sex: sexOf(str(a.Sex)),
      date_of_birth: unixDate(a.DOBUnixTime)?.slice(0, 10) ?? null,
      intake_date: unixDate(a.LastIntakeUnixTime)?.slice(0, 10) ?? null,
      microchip: str(chips[0]?.Id) || null,
      notes: str(a.Description) || null,
      photos: [...new Set(photos)],
      aliases: str(a.ID) && str(a['Internal-ID']) ? [str(a.ID)] : [],
    });
    const pounds = Number(str(a.CurrentWeightPounds));
    if (pounds > 0)
      b.weight.push({
        ext: `${ext}/weight`,
        row: `animal ${ext}`,
        animal: ext,
        weight: pounds,
        unit: 'lb',
        measured_on: unixDate(a.LastUpdatedUnixTime)?.slice(0, 10) ?? null,
      });
  }
  // Events per animal, in time order.
  const byAnimal = new Map<string, { type: string; sub: string; at: string | null; person: string | null; n: number }[]>();
  events.forEach((e, n) => {
    const recs = Array.isArray(e.AssociatedRecords) ? (e.AssociatedRecords as Json[]) : [];
    const animal = str(recs.find((r) => str(r.Type) === 'Animal')?.Id);
    const person = str(recs.find((r) => str(r.Type) === 'Person')?.Id) || null;
    if (!animal) return;
    const l = byAnimal.get(animal) ?? [];
    l.push({ type: str(e.Type), sub: str(e.Subtype), at: unixDate(e.Time), person, n });
    byAnimal.set(animal, l);
  });
  for (const a of b.animal) {
    const evs = (byAnimal.get(a.ext) ?? []).sort((x, y) => (x.at ?? '').localeCompare(y.at ?? '') || x.n - y.n);
    let open: MStay | null = null;
    let lastOutcome = '';
    let fosterOpen: MFoster | null = null;
    let k = 0;
    const openStay = (at: string | null, label: string, person: string | null, row: string) => {
      k += 1;
      open = {
        ext: `${a.ext}#${k}`,
        row,
        animal: a.ext,
        intake_at: at,
        intake_label: label,
        outcome_at: null,
        outcome_label: null,
        source_person: person,
        destination_person: null,
        adoption_return: /return/i.test(label) && /adopt/i.test(lastOutcome),
        notes: null,
      };
      b.stay.push(open);
    };
    for (const e of evs) {
      const row = `event ${e.n + 1}`;
      if (/foster/i.test(e.type) && e.person && /out|place|start/i.test(e.type)) {
        fosterOpen = {
          ext: `${a.ext}/foster/${e.n}`,
          row,
          animal: a.ext,
          person: e.person,
          started_on: e.at?.slice(0, 10) ?? null,
          ended_on: null,
          notes: e.sub || null,
        };
        b.foster.push(fosterOpen);
        personRoles.get(e.person)?.add('foster');
        continue;
      }
      if (/foster/i.test(e.type) && fosterOpen && /return|end|back/i.test(e.type)) {
        fosterOpen.ended_on = e.at?.slice(0, 10) ?? null;
        fosterOpen = null;
        continue;
      }
      if (/foster/i.test(e.type)) {
        b.note.push({
          ext: `${a.ext}/event/${e.n}`,
          row,
          animal: a.ext,
          kind: 'foster',
          body: `${e.type}${e.sub ? ` (${e.sub})` : ''}`,
          date: e.at,
        });
        continue;
      }
      if (e.type.startsWith('Intake.')) {
        if (!open) openStay(e.at, e.type.slice(7) || 'Unknown', e.person, row);
      } else if (e.type.startsWith('Outcome.')) {
        if (!open) openStay(a.intake_date, 'Unknown', null, row);
        const o = open as unknown as MStay;
        o.outcome_at = e.at;
        o.outcome_label = e.type.slice(8) || 'Unknown';
        o.destination_person = e.person;
        lastOutcome = o.outcome_label;
        if (e.person && /adopt/i.test(o.outcome_label)) personRoles.get(e.person)?.add('adopter');
        open = null;
      }
    }
    if (!k) openStay(a.intake_date, 'Unknown', null, `animal ${a.ext}`);
  }
  for (const p of b.person) p.roles = [...(personRoles.get(p.ext) ?? [])];
  for (const [animal] of byAnimal)
    if (!known.has(animal))
      b.refused.push({ kind: 'stay', row: `events of animal ${animal}`, reason: `name animal ${animal}, which is in no animals file` });
  return b;
}
