import { Type, Nullable, Strict, StringEnum, Timestamp, type Static } from '../../platform/schema.ts';
import { HttpUrl } from '../../platform/formats.ts';
import { pageQueryB, PageFieldsB } from '../../platform/pagination.ts';
import { AGE_GROUPS, SIZES } from './repository.ts';

/** The filters of the public list, shared by the pages, the JSON list and the feeds. */
export const FilterQuery = {
  species: Type.Optional(Type.String({ maxLength: 60, description: 'species, any case (e.g. dog)' })),
  sex: Type.Optional(StringEnum(['male', 'female'] as const)),
  age: Type.Optional(StringEnum(AGE_GROUPS, { description: 'baby under 6 months, young under 2 years, adult under 8, senior from 8' })),
  size: Type.Optional(
    StringEnum(SIZES, {
      description: 'from the weight: small up to 25 lb, medium 26–60, large 61–100, xlarge over 100; an animal with no weight matches none',
    }),
  ),
  location_id: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^[A-Za-z0-9_]+$',
      description:
        'a location id (see `locations`): animals at that site or in one of its housing units; animals with no location match none',
    }),
  ),
  good_with: Type.Optional(
    Type.Array(StringEnum(['dogs', 'cats', 'children'] as const), {
      maxItems: 3,
      description: 'only animals recorded as good with each of these (behaviour attributes good_with_dogs, …)',
    }),
  ),
  sort: Type.Optional(StringEnum(['newest', 'name'] as const, { default: 'newest' })),
};
export const PublicListQuery = Type.Object({ ...pageQueryB(48, 24), ...FilterQuery });

export const PublicAnimalItem = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'the public name (never the internal name)' }),
    species: Type.String(),
    breed: Nullable(Type.String()),
    sex: StringEnum(['male', 'female', 'unknown'] as const),
    age: Type.String({ description: 'as shown on the website, e.g. "3 months"' }),
    age_group: Nullable(StringEnum(AGE_GROUPS)),
    date_of_birth: Nullable(Type.String()),
    size: Nullable(
      StringEnum(SIZES, {
        description: 'from the weight: small up to 25 lb, medium 26–60, large 61–100, xlarge over 100; null without a weight',
      }),
    ),
    url: Type.String({ description: "the animal's page on the public website (absolute)" }),
    photo: Nullable(
      Type.Object(
        { url: Type.String(), width: Type.Integer(), height: Type.Integer() },
        { description: 'the first public photo, small size' },
      ),
    ),
    updated_at: Timestamp(),
  },
  { $id: 'PublicAnimalItem' },
);
export const PublicAnimalList = Type.Object(
  {
    results: Type.Array(PublicAnimalItem),
    ...PageFieldsB,
    total: Type.Integer({ description: 'adoptable animals matching the filters' }),
    species: Type.Array(Type.String(), { description: 'species among all adoptable animals, most first (for a filter)' }),
    locations: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
      description: 'the locations where adoptable animals are, by name (for the `location_id` filter; worth offering from two on)',
    }),
  },
  { $id: 'PublicAnimalList' },
);

const Colour = (description: string) => Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description });
const Text = (description: string) => Type.String({ maxLength: 2000, description });
export const SiteSettings = Type.Object(
  {
    primary_colour: Type.String(),
    accent_colour: Type.String(),
    logo_url: Nullable(Type.String()),
    donation_url: Nullable(Type.String()),
    tagline: Type.String(),
    how_to_adopt: Type.String(),
    how_to_foster: Type.String(),
    how_to_volunteer: Type.String(),
    updated_at: Nullable(Timestamp()),
    site_url: Type.String({ description: "the public website's address" }),
    widget: Type.String({ description: 'the script tag to paste into another website' }),
    iframe: Type.String({ description: 'the iframe alternative' }),
  },
  { $id: 'PublicSiteSettings' },
);
export const SiteSettingsPatch = Strict({
  primary_colour: Type.Optional(Colour('header and links, #rrggbb')),
  accent_colour: Type.Optional(Colour('the donate button, #rrggbb')),
  logo_url: Type.Optional(Nullable(HttpUrl({ maxLength: 500, description: 'a square image, shown 40×40' }))),
  donation_url: Type.Optional(Nullable(HttpUrl({ maxLength: 500, description: 'where the Donate links go (Ark moves no money)' }))),
  tagline: Type.Optional(Type.String({ maxLength: 200 })),
  how_to_adopt: Type.Optional(Text('shown on the home page and every animal page')),
  how_to_foster: Type.Optional(Text('shown on the home page')),
  how_to_volunteer: Type.Optional(Text('shown on the home page')),
});
export type SiteSettingsPatchT = Static<typeof SiteSettingsPatch>;

export const SyndicationTarget = Type.Object(
  {
    id: Type.String(),
    format: StringEnum(['petfinder', 'adoptapet'] as const),
    protocol: StringEnum(['ftp', 'sftp'] as const, { description: 'ftp (with `secure`: FTPS) or sftp (SSH file transfer)' }),
    host: Type.String(),
    port: Type.Integer(),
    username: Type.String(),
    password_set: Type.Boolean({ description: 'the password is never shown' }),
    secure: Type.Boolean({ description: 'explicit FTPS (AUTH TLS)' }),
    remote_dir: Type.String(),
    enabled: Type.Boolean(),
    last_run_at: Nullable(Timestamp()),
    last_status: Nullable(StringEnum(['ok', 'failed'] as const)),
    last_error: Nullable(Type.String()),
    last_animals: Nullable(Type.Integer({ description: 'animals in the last file uploaded' })),
    last_photos: Nullable(Type.Integer({ description: 'photo URLs in the last file uploaded' })),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'SyndicationTarget' },
);
export const SyndicationTargetList = Type.Object(
  { results: Type.Array(SyndicationTarget), ...PageFieldsB },
  { $id: 'SyndicationTargetList' },
);
const Host = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9.-]+$',
  description: 'FTP or SFTP server host name or address',
});
export const SyndicationCreate = Strict({
  format: StringEnum(['petfinder', 'adoptapet'] as const),
  protocol: Type.Optional(StringEnum(['ftp', 'sftp'] as const, { description: 'default ftp' })),
  host: Host,
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'default 21 for ftp, 22 for sftp' })),
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  secure: Type.Optional(Type.Boolean({ description: 'explicit FTPS (AUTH TLS), ftp only; default false' })),
  remote_dir: Type.Optional(
    Type.String({ minLength: 1, maxLength: 300, pattern: '^/', description: 'default / (Petfinder expects /import)' }),
  ),
  enabled: Type.Optional(Type.Boolean({ description: 'uploaded on the daily schedule; default true' })),
});
export type SyndicationCreateT = Static<typeof SyndicationCreate>;
export const SyndicationPatch = Type.Partial(SyndicationCreate, { additionalProperties: false });
export type SyndicationPatchT = Static<typeof SyndicationPatch>;
export const SyndicationRun = Type.Object(
  {
    status: StringEnum(['ok', 'failed'] as const),
    animals: Type.Integer(),
    photos: Type.Integer(),
    file: Type.String({ description: 'the file name uploaded' }),
    error: Nullable(Type.String()),
  },
  { $id: 'SyndicationRun' },
);
export const SyndicationQuery = Type.Object(pageQueryB(100, 25));
