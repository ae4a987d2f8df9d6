import { Nullable, StringEnum, Strict, Timestamp, Type, type Static } from '../../platform/schema.ts';

export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;

export const Member = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  role: Type.String({ description: 'the name of the role (the same roles API keys are made under)' }),
  role_id: Type.String(),
  status: StringEnum(MEMBER_STATUSES, {
    description:
      'invited: has not accepted the invitation yet; active: may sign in; disabled: may not sign in, and their keys stop working',
  }),
  two_factor: Type.Boolean({ description: 'true when sign-in also asks for a code from an authenticator app' }),
  last_sign_in_at: Nullable(Timestamp()),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});
export type MemberT = Static<typeof Member>;

export const MemberList = Type.Object({
  results: Type.Array(Member),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
});
export const MemberListQuery = Type.Object({
  status: Type.Optional(StringEnum(MEMBER_STATUSES)),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'part of the name or email' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

const Email = Type.String({ minLength: 3, maxLength: 254, description: 'an email address' });
const Password = Type.String({ minLength: 1, maxLength: 200, description: 'at least 10 characters' });

export const InviteBody = Strict({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Email,
  role: Type.String({ minLength: 1, maxLength: 64, description: 'a role id or name' }),
});
export const Invited = Type.Object({
  member: Member,
  emailed: Type.Boolean({ description: 'false when no SMTP provider is configured: share sign_in_url yourself' }),
  sign_in_url: Type.String({ description: 'the one-time link that accepts the invitation; expires after 7 days' }),
  expires_at: Timestamp(),
});

export const MemberPatch = Strict({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  role: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a role id or name' })),
  status: Type.Optional(StringEnum(['active', 'disabled'] as const, { description: 'disable (signs out everywhere) or enable again' })),
});

export const SignInBody = Strict({
  email: Email,
  password: Password,
  totp_code: Type.Optional(Type.String({ maxLength: 20, description: 'the 6-digit code, when two-factor sign-in is on' })),
  recovery_code: Type.Optional(Type.String({ maxLength: 40, description: 'instead of totp_code: one unused recovery code' })),
});

export const Session = Type.Object({
  member: Member,
  organization: Type.Object({
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    time_zone: Type.String({ description: 'every date and time in the staff app is shown in this zone' }),
    country: Type.String({ description: 'ISO 3166-1 alpha-2; phone numbers of this country are shown in its national format' }),
  }),
  grants: Type.Record(Type.String(), StringEnum(['read', 'write', 'admin'] as const), {
    description: "the member's role's grants per area",
  }),
  expires_at: Timestamp(),
});

export const AcceptBody = Strict({
  token: Type.String({ minLength: 1, maxLength: 100 }),
  password: Password,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
export const TokenInfo = Type.Object({
  purpose: StringEnum(['invitation', 'password_reset'] as const),
  email: Type.String(),
  name: Type.String(),
  organization: Type.String(),
});
export const TokenParam = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });

export const ResetRequestBody = Strict({ email: Email });
export const ResetBody = Strict({ token: Type.String({ minLength: 1, maxLength: 100 }), password: Password });

export const PasswordChangeBody = Strict({ current_password: Password, new_password: Password });
export const AccountPatch = Strict({ name: Type.String({ minLength: 1, maxLength: 200 }) });

export const TotpSetup = Type.Object({
  secret: Type.String({ description: 'base32, for typing into an authenticator app' }),
  otpauth_url: Type.String({ description: 'the otpauth:// URI (show it as a QR code)' }),
});
export const TotpEnableBody = Strict({
  code: Type.String({ minLength: 1, maxLength: 20 }),
  password: { ...Password, description: "the member's password: turning two-factor sign-in on asks for it" },
});
export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'shown once; each signs in once instead of a code' }),
});
export const TotpDisableBody = Strict({ password: Password });

export const Accepted = Type.Object({ accepted: Type.Boolean() });
