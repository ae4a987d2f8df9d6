/**
 * The closed lists of the reports area: Shelter Animals Count species groups and how Ark's free-text
 * species map to them, the age groups, and the rows of the monthly matrix in SAC's order.
 */
import { sql, type RawBuilder } from '../../platform/db/kysely.ts';

export const SPECIES_GROUPS = [
  'dogs',
  'cats',
  'rabbits',
  'equines',
  'small_mammals',
  'farm_animals',
  'birds',
  'reptiles_amphibians',
  'other',
] as const;
export type SpeciesGroup = (typeof SPECIES_GROUPS)[number];

export const GROUP_LABEL: Record<SpeciesGroup, string> = {
  dogs: 'Dogs',
  cats: 'Cats',
  rabbits: 'Rabbits',
  equines: 'Equines',
  small_mammals: 'Small mammals',
  farm_animals: 'Farm animals',
  birds: 'Birds',
  reptiles_amphibians: 'Reptiles and amphibians',
  other: 'Other (not a SAC group)',
};

/** Species (lower case, as recorded on the animal) → SAC group. A species not listed is `other`. */
export const SPECIES_TO_GROUP: Record<string, SpeciesGroup> = {
  dog: 'dogs',
  puppy: 'dogs',
  cat: 'cats',
  kitten: 'cats',
  rabbit: 'rabbits',
  bunny: 'rabbits',
  horse: 'equines',
  pony: 'equines',
  donkey: 'equines',
  mule: 'equines',
  burro: 'equines',
  'guinea pig': 'small_mammals',
  hamster: 'small_mammals',
  gerbil: 'small_mammals',
  rat: 'small_mammals',
  mouse: 'small_mammals',
  ferret: 'small_mammals',
  chinchilla: 'small_mammals',
  hedgehog: 'small_mammals',
  degu: 'small_mammals',
  'sugar glider': 'small_mammals',
  pig: 'farm_animals',
  goat: 'farm_animals',
  sheep: 'farm_animals',
  cow: 'farm_animals',
  cattle: 'farm_animals',
  llama: 'farm_animals',
  alpaca: 'farm_animals',
  chicken: 'farm_animals',
  duck: 'farm_animals',
  goose: 'farm_animals',
  turkey: 'farm_animals',
  bird: 'birds',
  parrot: 'birds',
  parakeet: 'birds',
  budgie: 'birds',
  cockatiel: 'birds',
  canary: 'birds',
  finch: 'birds',
  dove: 'birds',
  pigeon: 'birds',
  reptile: 'reptiles_amphibians',
  snake: 'reptiles_amphibians',
  lizard: 'reptiles_amphibians',
  gecko: 'reptiles_amphibians',
  iguana: 'reptiles_amphibians',
  'bearded dragon': 'reptiles_amphibians',
  turtle: 'reptiles_amphibians',
  tortoise: 'reptiles_amphibians',
  frog: 'reptiles_amphibians',
  toad: 'reptiles_amphibians',
  salamander: 'reptiles_amphibians',
  amphibian: 'reptiles_amphibians',
};

export const AGE_GROUPS = ['adult', 'up_to_5_months', 'unknown'] as const;
export type AgeGroup = (typeof AGE_GROUPS)[number];
export const AGE_LABEL: Record<AgeGroup, string> = { adult: 'Adult', up_to_5_months: 'Up to 5 months', unknown: 'Age unknown' };

/** The intake rows of the matrix, in SAC's order: [Ark intake type, SAC row label]. */
export const SAC_INTAKE_ROWS = [
  ['stray', 'Stray/At large'],
  ['relinquished', 'Relinquished by owner'],
  ['owner_intended_euthanasia', 'Owner-intended euthanasia'],
  ['transfer_in', 'Transferred in from agency'],
  ['other', 'Other intakes'],
] as const;

/** The outcome rows of the matrix, in SAC's order: [Ark outcome type, SAC row label, live]. */
export const SAC_OUTCOME_ROWS = [
  ['adoption', 'Adoption', true],
  ['return_to_owner', 'Returned to owner', true],
  ['transfer_out', 'Transferred to another agency', true],
  ['return_to_field', 'Returned to field', true],
  ['other_live', 'Other live outcome', true],
  ['died_in_care', 'Died in care', false],
  ['lost_in_care', 'Lost in care', false],
  ['shelter_euthanasia', 'Shelter euthanasia', false],
  ['owner_intended_euthanasia', 'Owner-intended euthanasia', false],
] as const;

export const LIVE_OUTCOME_TYPES: readonly string[] = SAC_OUTCOME_ROWS.filter((r) => r[2]).map((r) => r[0]);

/** The two species-mapping arrays bound as query parameters (species, group). */
export const speciesParams = (): [string[], string[]] => [Object.keys(SPECIES_TO_GROUP), Object.values(SPECIES_TO_GROUP)];

/** The species → SAC group mapping as rows (s, g), both arrays bound as values: `map AS (${speciesMapSql()})`. */
export const speciesMapSql = (): RawBuilder<{ s: string; g: SpeciesGroup }> => {
  const [species, groups] = speciesParams();
  return sql`SELECT s, g FROM unnest(${species}::text[], ${groups}::text[]) AS m(s, g)`;
};

/**
 * SQL for the age group of a stay's animal (the stays row `row`, a name from code) at a moment: from the date of birth
 * when known, else from the age in weeks recorded at the stay's intake (birth ≈ intake day − age); "up to 5 months"
 * while birth + 5 months is after the moment's day in the time zone `tz` (a bound value).
 */
export const ageGroupSql = (row: string, at: RawBuilder<unknown>, tz: string): RawBuilder<AgeGroup> => {
  const col = (name: string) => sql.ref(`${row}.${name}`);
  const born = sql`coalesce(${col('date_of_birth')}, (${col('intake_at')} AT TIME ZONE ${tz})::date - ${col('age_weeks')} * 7)`;
  return sql`(CASE WHEN ${born} IS NULL THEN 'unknown'
         WHEN ${born} + interval '5 months' > (${at} AT TIME ZONE ${tz})::date THEN 'up_to_5_months'
         ELSE 'adult' END)`;
};
