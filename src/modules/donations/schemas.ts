import { Type, Nullable, DateString, Timestamp, StringEnum, Strict, type Static } from '../../platform/schema.ts';
import { PageQueryA, MetaA } from '../../platform/pagination.ts';
import { Currency } from '../../platform/formats.ts';

export const DONATION_TYPES = ['one-off', 'recurring', 'post-adoption'] as const;
export const PAYMENT_METHODS = ['card', 'cash', 'check', 'bank_transfer', 'other'] as const;

export const Donation = Type.Object(
  {
    id: Type.String(),
    donorId: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    type: StringEnum(DONATION_TYPES),
    campaignId: Nullable(Type.String()),
    animalId: Nullable(Type.String()),
    paymentMethod: StringEnum(PAYMENT_METHODS),
    gateway: Nullable(Type.String()),
    gatewayTransactionId: Nullable(Type.String()),
    date: DateString(),
    notes: Nullable(Type.String()),
    createdAt: Timestamp(),
  },
  { $id: 'Donation', description: 'A ledger entry: recording it moves no money. amount is exact (stored in integer minor units).' },
);
export type DonationA = Static<typeof Donation>;

export const DonationCreate = Strict({
  donorId: Type.String({ minLength: 1, maxLength: 64, description: 'a person on file' }),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'greater than 0, with no more decimals than the currency has' }),
  type: StringEnum(DONATION_TYPES, {
    description:
      'one-off: a single gift; recurring: one installment of a scheduled gift (no future records are generated); post-adoption: ' +
      'extra gift at adoption collected outside the payment-link flow',
  }),
  date: DateString(),
  paymentMethod: StringEnum(PAYMENT_METHODS),
  currency: Type.Optional(Currency({ description: "ISO 4217; defaults to the organization's currency" })),
  campaignId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  animalId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  gateway: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'payment processor, if any; not accepted for cash or check' })),
  ),
  gatewayTransactionId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 20000 }))),
});
export type DonationCreateBody = Static<typeof DonationCreate>;

export const DonationListQuery = Type.Object({
  ...PageQueryA,
  donorId: Type.Optional(Type.String({ maxLength: 64 })),
  campaignId: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.Optional(StringEnum(DONATION_TYPES)),
  dateFrom: Type.Optional(DateString({ description: 'inclusive' })),
  dateTo: Type.Optional(DateString({ description: 'inclusive' })),
  animalId: Type.Optional(Type.String({ maxLength: 64 })),
});
export type DonationListQueryT = Static<typeof DonationListQuery>;
export const DonationList = Type.Object({ data: Type.Array(Donation), meta: MetaA });
