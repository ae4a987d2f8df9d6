import { Nullable, StringEnum, Strict, Timestamp, Type } from '../../platform/schema.ts';
import { pageQueryB, PageFieldsB } from '../../platform/pagination.ts';

export const PortalAccount = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    email: Type.String({ description: "the person's email when they were first invited: the address they sign in with" }),
    status: StringEnum(['invited', 'active', 'disabled'] as const, {
      description: 'invited: no link used yet; active: signed in at least once; disabled: turned off by staff (no sign-in)',
    }),
    has_password: Type.Boolean({ description: 'false: the person signs in by emailed links only' }),
    last_sign_in_at: Nullable(Timestamp()),
    created_at: Timestamp(),
  },
  { $id: 'PortalAccount' },
);
export const Invitation = Type.Object(
  {
    account: PortalAccount,
    created: Type.Boolean({ description: 'true when this invitation made the account' }),
    emailed: Type.Boolean({ description: 'false when no mail provider is configured: hand the link over yourself' }),
    sign_in_url: Type.String({ description: 'the one-time link (7 days)' }),
    expires_at: Timestamp(),
  },
  { $id: 'PortalInvitation' },
);
export const BulkInviteBody = Strict({
  person_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 200, uniqueItems: true }),
});
export const BulkInvited = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        person_id: Type.String(),
        invited: Type.Boolean(),
        emailed: Type.Boolean(),
        error: Nullable(Type.String({ description: 'why this person was not invited (no such person, no email)' })),
      }),
    ),
    invited: Type.Integer(),
  },
  { $id: 'PortalBulkInvited' },
);
export const AccountStatusBody = Strict({ enabled: Type.Boolean({ description: 'false turns the account off and ends its sessions' }) });

export const UPDATE_STATUSES = ['pending', 'approved', 'declined'] as const;
export const FosterUpdate = Type.Object(
  {
    id: Type.String(),
    person_id: Type.String(),
    person_name: Type.String(),
    animal_id: Type.String(),
    animal_name: Type.String(),
    body: Type.String(),
    note_id: Type.String({ description: "the animal's note (kind foster, internal) holding the text" }),
    photo_ids: Type.Array(Type.String()),
    photo_urls: Type.Array(Type.String(), { description: "the photos' medium size, through the animal photo routes" }),
    status: StringEnum(UPDATE_STATUSES),
    reviewed_by: Nullable(Type.String()),
    reviewed_at: Nullable(Timestamp()),
    created_at: Timestamp(),
  },
  { $id: 'PortalFosterUpdate' },
);
export const FosterUpdateList = Type.Object({ results: Type.Array(FosterUpdate), ...PageFieldsB }, { $id: 'PortalFosterUpdateList' });
export const FosterUpdateQuery = Type.Object({
  status: Type.Optional(StringEnum(UPDATE_STATUSES, { description: 'default pending' })),
  animal_id: Type.Optional(Type.String({ maxLength: 64 })),
  ...pageQueryB(100, 25),
});
export const ReviewBody = Strict({
  publish_photos: Type.Optional(Type.Boolean({ description: 'approving makes the photos public unless false' })),
});
export const PortalParts = Type.Object(
  {
    foster: Type.Boolean(),
    volunteer: Type.Boolean(),
    adopter: Type.Boolean(),
    donor: Type.Boolean(),
    welcome: Type.String({ description: 'a few words shown on the sign-in page, under the organization name' }),
    share_vaccinations: Type.Boolean({ description: "an adopter sees their adopted animals' vaccinations with dates" }),
    share_microchip: Type.Boolean({ description: "an adopter sees their adopted animals' microchip numbers" }),
    share_spay_neuter: Type.Boolean({ description: 'an adopter sees whether, and when, their adopted animals were spayed or neutered' }),
    updated_at: Nullable(Timestamp()),
  },
  { $id: 'PortalParts' },
);
export const PortalPartsBody = Strict({
  foster: Type.Boolean(),
  volunteer: Type.Boolean(),
  adopter: Type.Boolean(),
  donor: Type.Boolean(),
  welcome: Type.String({ maxLength: 1000 }),
  share_vaccinations: Type.Optional(Type.Boolean({ description: 'left out: unchanged' })),
  share_microchip: Type.Optional(Type.Boolean({ description: 'left out: unchanged' })),
  share_spay_neuter: Type.Optional(Type.Boolean({ description: 'left out: unchanged' })),
});
