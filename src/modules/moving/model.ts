import { createHash } from 'node:crypto';

/**
 * The common shape every source is read into before anything is written: one list per record kind, each record
 * with the id it had in the source system (`ext`), the line or row it came from (`row`, for refusals), and
 * references to other records by their source ids. Intake and outcome types stay the source's own words (`*_label`)
 * until the run's type mapping turns them into Shelter Animals Count categories.
 */
export const KINDS = ['person', 'animal', 'stay', 'medical', 'weight', 'note', 'foster', 'donation', 'photo', 'adoption'] as const;
export type Kind = (typeof KINDS)[number];
/** The kinds a source's files are read into, in the order the run writes them (records refer to those before them). */
export const BUNDLE_KINDS = ['person', 'animal', 'stay', 'medical', 'weight', 'note', 'foster', 'donation', 'photo'] as const;
export type BundleKind = (typeof BUNDLE_KINDS)[number];
/** The kinds a spreadsheet's rows can be (a photo is a column of an animal; an adoption is a stay's outcome). */
export const FILE_KINDS = ['person', 'animal', 'stay', 'medical', 'weight', 'note', 'foster', 'donation'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export type Sex = 'male' | 'female' | 'unknown';
export interface MAnimal {
  ext: string;
  row: string;
  name: string;
  species: string;
  breed: string | null;
  colour: string | null;
  sex: Sex;
  date_of_birth: string | null;
  intake_date: string | null;
  microchip: string | null;
  notes: string | null;
  photos: string[];
  /** Other ids the source shows for the same animal (Shelterluv's short ID beside its Internal-ID): found by either. */
  aliases?: string[];
}
export interface MPerson {
  ext: string;
  row: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  address: { line1: string; city: string; state: string | null; postalCode: string | null; country: string } | null;
  roles: string[];
}
export interface MStay {
  ext: string;
  row: string;
  animal: string;
  intake_at: string | null;
  intake_label: string;
  outcome_at: string | null;
  outcome_label: string | null;
  source_person: string | null;
  destination_person: string | null;
  /** The intake is the animal coming back from an adoption. */
  adoption_return: boolean;
  notes: string | null;
  /** The adoption fee the source records for this stay's adoption (exact minor units, a decimal string), if any. */
  fee_minor?: string | null;
}
export interface MMedical {
  ext: string;
  row: string;
  animal: string;
  kind: 'vaccine' | 'test' | 'treatment' | 'procedure';
  name: string;
  given_at: string | null;
  next_due_on: string | null;
  dose: string | null;
  lot: string | null;
  manufacturer: string | null;
  rabies_tag: string | null;
  result: 'negative' | 'positive' | 'unknown' | null;
  notes: string | null;
}
export interface MWeight {
  ext: string;
  row: string;
  animal: string;
  weight: number;
  unit: 'kg' | 'lb';
  measured_on: string | null;
}
export interface MNote {
  ext: string;
  row: string;
  animal: string;
  kind: 'general' | 'medical' | 'behaviour' | 'adoption' | 'foster';
  body: string;
  date: string | null;
}
/** A foster placement: the animal in the foster's home from one date to another (no end: still there). */
export interface MFoster {
  ext: string;
  row: string;
  animal: string;
  person: string;
  started_on: string | null;
  ended_on: string | null;
  notes: string | null;
}
export interface MDonation {
  ext: string;
  row: string;
  person: string;
  animal: string | null;
  /** Exact, in the organization currency's minor units (a decimal string, as bigint does not travel in JSON). */
  amount_minor: string;
  date: string | null;
  method: 'card' | 'cash' | 'check' | 'bank_transfer' | 'other';
  notes: string | null;
}
/**
 * A photo of an animal: an address the run downloads (`url`), or the file itself when the source holds it (`data`,
 * base64: ASM3's database). `ext` is the address, or the source's own media id; a photo on file is never fetched again.
 */
export interface MPhoto {
  ext: string;
  row: string;
  animal: string;
  url: string | null;
  data: string | null;
  filename: string | null;
}
export interface Refusal {
  kind: Kind;
  row: string;
  reason: string;
}
export interface Bundle {
  source: string;
  person: MPerson[];
  animal: MAnimal[];
  stay: MStay[];
  medical: MMedical[];
  weight: MWeight[];
  note: MNote[];
  foster: MFoster[];
  donation: MDonation[];
  photo: MPhoto[];
  /** Rows the reader could not make a record of. */
  refused: Refusal[];
}
export const emptyBundle = (source: string): Bundle => ({
  source,
  person: [],
  animal: [],
  stay: [],
  medical: [],
  weight: [],
  note: [],
  foster: [],
  donation: [],
  photo: [],
  refused: [],
});
export type AnyRecord = Bundle[BundleKind][number];

/**
 * The photos of the animals read (each animal's `photos` addresses, http and https only), one record per animal and
 * address, known by the address: what the readers of sources that give addresses call last.
 */
export function photosFromAddresses(b: Bundle): Bundle {
  const seen = new Set(b.photo.map((p) => `${p.animal}\n${p.ext}`));
  for (const a of b.animal)
    for (const raw of a.photos) {
      const url = raw.trim();
      if (!/^https?:\/\/[^\s]+$/i.test(url) || seen.has(`${a.ext}\n${url}`)) continue;
      seen.add(`${a.ext}\n${url}`);
      b.photo.push({ ext: `${a.ext} ${url}`.slice(0, 2000), row: a.row, animal: a.ext, url, data: null, filename: null });
    }
  return b;
}

// The categories are the stays area's own (Shelter Animals Count): a mapping can name nothing else.
export {
  INTAKE_TYPES as INTAKE_CATEGORIES,
  OUTCOME_TYPES as OUTCOME_CATEGORIES,
  type IntakeType as IntakeCategory,
  type OutcomeType as OutcomeCategory,
} from '../stays/public.ts';
import type { IntakeType as IntakeCategory, OutcomeType as OutcomeCategory } from '../stays/public.ts';
export interface Mappings {
  intake: Record<string, IntakeCategory>;
  outcome: Record<string, OutcomeCategory>;
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * The category a source's intake or outcome word most likely means. The words are those of the sources' own lists
 * (ASM3's entry reasons and movement types, Shelterluv's event types, PetPoint's intake and outcome types); a word
 * nothing here recognises is `other` (intake) or `other_live` (outcome) and is shown in the dry run for the user to set.
 */
const RELINQUISHED = [
  'surrender',
  'relinquish',
  'owner',
  'return',
  'moving',
  'allerg',
  'landlord',
  'marri',
  'relationship',
  'behaviour',
  'behavior',
  'biting',
  'financial',
  'afford',
  'cope',
  'accom',
  'too many',
  'litter',
  'sick',
  'died',
  'death',
  'unable',
].join('|');
export function guessIntake(label: string): IntakeCategory {
  const l = norm(label);
  if (/owner.*(euth|pts|put to sleep)|euthanasia request|oie|owner intended/.test(l)) return 'owner_intended_euthanasia';
  if (/transfer|rescue|from another|partner/.test(l)) return 'transfer_in';
  if (/born|tnr|boarding/.test(l)) return 'other';
  if (/stray|found|abandon|seized|confiscat|impound|abuse|at large|pick ?up/.test(l)) return 'stray';
  if (new RegExp(RELINQUISHED).test(l)) return 'relinquished';
  return 'other';
}
export function guessOutcome(label: string): OutcomeCategory {
  const l = norm(label);
  if (/owner.*(euth|request)|requested euth/.test(l)) return 'owner_intended_euthanasia';
  if (/euth|put to sleep|pts/.test(l)) return 'shelter_euthanasia';
  if (/adopt|retailer|permanent foster/.test(l)) return 'adoption';
  if (/reclaim|return(ed)? to owner|rto/.test(l)) return 'return_to_owner';
  if (/transfer|rescue/.test(l)) return 'transfer_out';
  if (/tnr|released|return to field|rtf|shelter.neuter.return|wild/.test(l)) return 'return_to_field';
  if (/died|death|deceased|doa|dead/.test(l)) return 'died_in_care';
  if (/escap|stolen|lost|missing/.test(l)) return 'lost_in_care';
  return 'other_live';
}

/** The mapping the run uses: the user's choices where given, the guesses otherwise, for every word the source uses. */
export function resolveMappings(
  b: Bundle,
  given: Partial<Mappings> = {},
): Mappings & { counts: { intake: Record<string, number>; outcome: Record<string, number> } } {
  const m: Mappings = { intake: {}, outcome: {} };
  const counts = { intake: {} as Record<string, number>, outcome: {} as Record<string, number> };
  for (const s of b.stay) {
    const i = s.intake_label || 'Unknown';
    m.intake[i] = given.intake?.[i] ?? m.intake[i] ?? guessIntake(i);
    counts.intake[i] = (counts.intake[i] ?? 0) + 1;
    if (s.outcome_at !== null && s.outcome_label !== null) {
      const o = s.outcome_label || 'Unknown';
      m.outcome[o] = given.outcome?.[o] ?? m.outcome[o] ?? guessOutcome(o);
      counts.outcome[o] = (counts.outcome[o] ?? 0) + 1;
    }
  }
  return { ...m, counts };
}

/** A short, stable digest of a source record as it will be written: the same record twice is "unchanged". */
export function fingerprint(r: AnyRecord, extra: unknown = null): string {
  const { row: _row, ...rest } = r;
  return createHash('sha256')
    .update(JSON.stringify([rest, extra]))
    .digest('base64url')
    .slice(0, 22);
}

/** Dates as the sources write them (ISO, d/m/y or m/d/y, with or without a time) to an ISO date, or null. */
export function isoDate(v: string | null | undefined, order: 'dmy' | 'mdy' = 'mdy'): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  if (!s) return null;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(s);
  let y: number, mo: number, d: number;
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})\b/.exec(s);
    if (!m) return null;
    const [a, b2] = [Number(m[1]), Number(m[2])];
    y = Number(m[3]) < 100 ? 2000 + Number(m[3]) : Number(m[3]);
    [d, mo] = order === 'dmy' ? [a, b2] : [b2, a];
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1900 || y > 2100) return null;
  const iso = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return Number.isNaN(Date.parse(iso)) || new Date(iso).toISOString().slice(0, 10) !== iso ? null : iso;
}

/** A money amount as written ("1,234.50", "$20", "20.5") to exact minor units (two decimals), or null. */
export function minorUnits(v: string | number | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).replace(/[^\d.,-]/g, '');
  if (!s) return null;
  // The last separator followed by one or two digits is the decimal point; the others group thousands.
  const m = /^(-?)([\d.,]*?)(?:[.,](\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const whole = (m[2] ?? '').replace(/[.,]/g, '') || '0';
  const cents = (m[3] ?? '').padEnd(2, '0');
  const n = BigInt(whole) * 100n + BigInt(cents || '0');
  return (m[1] ? -n : n).toString();
}

export function sexOf(v: string | null | undefined): Sex {
  const s = norm(v ?? '');
  if (s.startsWith('f') || s === '0' || s.startsWith('spayed')) return 'female';
  if (s.startsWith('m') || s === '1' || s.startsWith('neutered')) return 'male';
  return 'unknown';
}
