import { Type, Nullable, Timestamp, Strict, StringEnum, type Static } from '../../platform/schema.ts';
import { Country, Currency, Email, HttpUrl, Phone, RoleName, TimeZone } from '../../platform/formats.ts';
import { AREAS, LEVELS } from '../../platform/permissions.ts';

export const Grants = Type.Partial(
  Type.Object(
    Object.fromEntries(AREAS.map((a) => [a, StringEnum(LEVELS)])) as Record<
      (typeof AREAS)[number],
      ReturnType<typeof StringEnum<typeof LEVELS>>
    >,
  ),
  { additionalProperties: false, description: 'level per area: read < write < admin; a higher level includes the lower ones' },
);
export const Role = Type.Object(
  { id: Type.String(), name: Type.String(), grants: Grants, built_in: Type.Boolean(), created_at: Timestamp(), updated_at: Timestamp() },
  { $id: 'Role' },
);
export const RoleCreate = Strict({ name: RoleName(), grants: Grants });
export const RoleUpdate = Type.Partial(RoleCreate);
export type RolePatch = Static<typeof RoleUpdate>;

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    role_id: Type.String(),
    role_name: Type.String(),
    label: Nullable(Type.String()),
    key_start: Type.String({ description: 'first characters, to recognise the key' }),
    created_at: Timestamp(),
    revoked_at: Nullable(Timestamp()),
    last_used_at: Nullable(Timestamp({ description: 'updated at most once a minute' })),
  },
  { $id: 'ApiKey' },
);
export const ApiKeyCreate = Strict({
  role: Type.String({ minLength: 1, maxLength: 64, description: 'role name or id' }),
  label: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
});

export const OrgProfile = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    website: Nullable(Type.String()),
    currency: Type.String(),
    time_zone: Type.String(),
    country: Type.String(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'OrganizationProfile' },
);
/** What an organization is made with and may change; null clears email, phone and website. */
export const OrganizationLocale = Strict({ currency: Currency(), time_zone: TimeZone(), country: Country() });
export const OrganizationPatch = Strict({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  email: Type.Optional(Nullable(Email())),
  phone: Type.Optional(
    Nullable(Phone({ description: "any phone notation; stored in E.164 (the organization's country is assumed without a + prefix)" })),
  ),
  website: Type.Optional(Nullable(HttpUrl({ maxLength: 500 }))),
  ...Type.Partial(OrganizationLocale).properties,
});
