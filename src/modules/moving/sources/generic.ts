import { invalid } from '../../../platform/errors.ts';
import { emptyBundle, isoDate, minorUnits, sexOf, type Bundle, type FileKind } from '../model.ts';
import { readTable } from './csv.ts';

/** The fields a generic spreadsheet's columns can fill, per record kind (`ext` is the record's id in the old system). */
export const GENERIC_FIELDS: Record<FileKind, string[]> = {
  person: ['ext', 'first_name', 'last_name', 'email', 'phone', 'address_line1', 'city', 'state', 'postal_code', 'country', 'roles'],
  animal: ['ext', 'name', 'species', 'breed', 'colour', 'sex', 'date_of_birth', 'intake_date', 'microchip', 'notes', 'photo_url'],
  stay: ['ext', 'animal', 'intake_at', 'intake_type', 'outcome_at', 'outcome_type', 'source_person', 'destination_person', 'notes'],
  medical: ['ext', 'animal', 'kind', 'name', 'given_at', 'next_due_on', 'dose', 'lot', 'manufacturer', 'rabies_tag', 'result', 'notes'],
  weight: ['ext', 'animal', 'weight', 'unit', 'measured_on'],
  note: ['ext', 'animal', 'kind', 'body', 'date'],
  foster: ['ext', 'animal', 'person', 'started_on', 'ended_on', 'notes'],
  donation: ['ext', 'person', 'animal', 'amount', 'date', 'method', 'notes'],
};

/**
 * Spreadsheets of any layout, one file per record kind, each with its column mapping (header → field of
 * GENERIC_FIELDS). A row without an `ext` column is known by its file and line, so a second run of the same file
 * still finds it.
 */
export async function readGeneric(
  files: Record<string, string>,
  plan: { kind: FileKind; file: string; columns: Record<string, string> }[],
  order: 'dmy' | 'mdy',
): Promise<Bundle> {
  const b = emptyBundle('generic');
  const date = (v: string) => isoDate(v, order);
  if (!plan.length) throw invalid({ generic: ['must say which file holds which record kind, with its column mapping'] });
  for (const { kind, file, columns } of plan) {
    const content = files[file];
    if (content === undefined) throw invalid({ generic: [`names file ${file}, which was not sent`] });
    for (const [h, f] of Object.entries(columns))
      if (!GENERIC_FIELDS[kind].includes(f))
        throw invalid({ generic: [`column ${h}: ${f} is not a field of ${kind} (${GENERIC_FIELDS[kind].join(', ')})`] });
    const t = await readTable(file, content);
    const byField = new Map(Object.entries(columns).map(([h, f]) => [f, h]));
    for (const r of t.rows) {
      const g = (f: string) => {
        const h = byField.get(f);
        return h ? r.get(h) : '';
      };
      const row = `${file} line ${r.line}`;
      const ext = g('ext') || `${file}:${r.line}`;
      switch (kind) {
        case 'person':
          b.person.push({
            ext,
            row,
            first_name: g('first_name'),
            last_name: g('last_name'),
            email: g('email') || null,
            phone: g('phone') || null,
            address:
              g('address_line1') && g('city')
                ? {
                    line1: g('address_line1'),
                    city: g('city'),
                    state: g('state') || null,
                    postalCode: g('postal_code') || null,
                    country: g('country').toUpperCase(),
                  }
                : null,
            roles: g('roles')
              .split(/[,;|]/)
              .map((x) => x.trim().toLowerCase())
              .filter(Boolean),
          });
          break;
        case 'animal':
          b.animal.push({
            ext,
            row,
            name: g('name'),
            species: g('species'),
            breed: g('breed') || null,
            colour: g('colour') || null,
            sex: sexOf(g('sex')),
            date_of_birth: date(g('date_of_birth')),
            intake_date: date(g('intake_date')),
            microchip: g('microchip') || null,
            notes: g('notes') || null,
            photos: g('photo_url') ? [g('photo_url')] : [],
          });
          break;
        case 'stay':
          b.stay.push({
            ext,
            row,
            animal: g('animal'),
            intake_at: date(g('intake_at')),
            intake_label: g('intake_type') || 'Unknown',
            outcome_at: date(g('outcome_at')),
            outcome_label: date(g('outcome_at')) ? g('outcome_type') || 'Unknown' : null,
            source_person: g('source_person') || null,
            destination_person: g('destination_person') || null,
            adoption_return: /return/i.test(g('intake_type')) && /adopt/i.test(g('intake_type')),
            notes: g('notes') || null,
          });
          break;
        case 'medical': {
          const k = g('kind').toLowerCase();
          const res = g('result').toLowerCase();
          b.medical.push({
            ext,
            row,
            animal: g('animal'),
            kind: k.startsWith('vac')
              ? 'vaccine'
              : k.startsWith('test')
                ? 'test'
                : k.startsWith('proc') || k.startsWith('surg')
                  ? 'procedure'
                  : 'treatment',
            name: g('name'),
            given_at: date(g('given_at')),
            next_due_on: date(g('next_due_on')),
            dose: g('dose') || null,
            lot: g('lot') || null,
            manufacturer: g('manufacturer') || null,
            rabies_tag: g('rabies_tag') || null,
            result: res.startsWith('neg') ? 'negative' : res.startsWith('pos') ? 'positive' : res ? 'unknown' : null,
            notes: g('notes') || null,
          });
          break;
        }
        case 'weight':
          b.weight.push({
            ext,
            row,
            animal: g('animal'),
            weight: Number(g('weight')),
            unit: /^k/i.test(g('unit')) ? 'kg' : 'lb',
            measured_on: date(g('measured_on')),
          });
          break;
        case 'note': {
          const k = g('kind').toLowerCase();
          b.note.push({
            ext,
            row,
            animal: g('animal'),
            kind: (['medical', 'behaviour', 'adoption', 'foster'] as const).find((x) => k.startsWith(x.slice(0, 5))) ?? 'general',
            body: g('body'),
            date: date(g('date')),
          });
          break;
        }
        case 'foster':
          b.foster.push({
            ext,
            row,
            animal: g('animal'),
            person: g('person'),
            started_on: date(g('started_on')),
            ended_on: date(g('ended_on')),
            notes: g('notes') || null,
          });
          break;
        case 'donation': {
          const m = g('method').toLowerCase();
          b.donation.push({
            ext,
            row,
            person: g('person'),
            animal: g('animal') || null,
            amount_minor: minorUnits(g('amount')) ?? '0',
            date: date(g('date')),
            method: /card/.test(m)
              ? 'card'
              : /cash/.test(m)
                ? 'cash'
                : /che(ck|que)/.test(m)
                  ? 'check'
                  : /bank|transfer/.test(m)
                    ? 'bank_transfer'
                    : 'other',
            notes: g('notes') || null,
          });
          break;
        }
      }
    }
  }
  return b;
}
