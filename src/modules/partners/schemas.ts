import { Type, Nullable, Timestamp, StringEnum, Strict, DateString, type Static, type TSchema } from '../../platform/schema.ts';
import { PageFieldsB, pageQueryB } from '../../platform/pagination.ts';
import { Country, Email, HttpUrl, Id64, Phone } from '../../platform/formats.ts';

export const KINDS = ['rescue', 'shelter', 'vet', 'transport', 'supplier', 'other'] as const;
export const SubParam = (what: string) => Type.Object({ id: Id64({ description: 'the partner' }), sub_id: Id64({ description: what }) });
export const ListQuery = Type.Object(pageQueryB(100, 50));
export const list = (item: TSchema, id: string) => Type.Object({ results: Type.Array(item), ...PageFieldsB }, { $id: id });

export const Partner = Type.Object(
  {
    id: Type.String(),
    kind: StringEnum(KINDS),
    name: Type.String(),
    contact_name: Type.String({ description: 'the person to ask for; empty when none' }),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String({ description: 'E.164' })),
    website: Nullable(Type.String()),
    notes: Type.String(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Partner' },
);
export const partnerFields = {
  kind: StringEnum(KINDS),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  contact_name: Type.String({ maxLength: 200 }),
  email: Nullable(Email()),
  phone: Nullable(Phone({ description: "any notation; stored in E.164 (the organization's country assumed without +)" })),
  website: Nullable(HttpUrl()),
  notes: Type.String({ maxLength: 20000 }),
};
export const PartnerCreate = Strict({
  kind: partnerFields.kind,
  name: partnerFields.name,
  contact_name: Type.Optional(partnerFields.contact_name),
  email: Type.Optional(partnerFields.email),
  phone: Type.Optional(partnerFields.phone),
  website: Type.Optional(partnerFields.website),
  notes: Type.Optional(partnerFields.notes),
});
export const PartnerPatch = Type.Partial(PartnerCreate, { description: 'Only sent fields change.' });

export const Location = Type.Object(
  {
    id: Type.String(),
    partner_id: Type.String(),
    name: Type.String({ description: 'e.g. Main clinic; empty when none' }),
    line1: Type.String(),
    line2: Nullable(Type.String()),
    city: Type.String(),
    state: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    country: Type.String(),
    phone: Nullable(Type.String({ description: 'E.164' })),
    hours: Type.String({ description: 'opening hours as free text, e.g. Mon-Fri 9-17' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PartnerLocation' },
);
export const LocationCreate = Strict({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  postal_code: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  country: Country(),
  phone: Type.Optional(Nullable(Phone())),
  hours: Type.Optional(Type.String({ maxLength: 500 })),
});
export const LocationPatch = Type.Partial(LocationCreate, { description: 'Only sent fields change.' });

export const Affiliation = Type.Object(
  {
    id: Type.String(),
    partner_id: Type.String(),
    person_id: Type.String(),
    role: Type.String({ description: 'e.g. director, vet, driver' }),
    valid_from: Nullable(DateString()),
    valid_until: Nullable(DateString()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'PartnerAffiliation' },
);
export const range = {
  valid_from: Type.Optional(Nullable(DateString({ description: 'first day; null: unknown' }))),
  valid_until: Type.Optional(Nullable(DateString({ description: 'last day; null: still affiliated' }))),
};
export const AffiliationCreate = Strict({ person_id: Id64(), role: Type.String({ minLength: 1, maxLength: 100 }), ...range });
export const AffiliationPatch = Strict(
  { role: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), ...range },
  { description: 'The person never changes.' },
);

export const PartnerQuery = Type.Object({
  ...pageQueryB(100, 50),
  kind: Type.Optional(StringEnum(KINDS)),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'part of the name, any case' })),
});

export type PartnerT = Static<typeof Partner>;
export type LocationT = Static<typeof Location>;
export type AffiliationT = Static<typeof Affiliation>;
