import { Type, Nullable, Strict, StringEnum, DateString, type Static } from '../../platform/schema.ts';
import { PageQueryA, MetaA } from '../../platform/pagination.ts';

export const EVENT_STATUSES = ['scheduled', 'cancelled', 'completed'] as const;
export const RSVPS = ['invited', 'going', 'maybe', 'declined', 'attended'] as const;
/** RSVPs that take places: the person and their guests count against capacity. */
export const TAKES_PLACE = ['going', 'attended'] as const;
export const LOCATION_TYPES = ['housing_location', 'partner_location', 'address'] as const;

const zoned = Type.String({
  format: 'date-time',
  description: 'ISO 8601 date-time with an offset (or Z); answered in the event’s time zone with its offset',
});

export const EventLocation = Type.Object(
  {
    type: StringEnum(LOCATION_TYPES),
    id: Nullable(Type.String({ maxLength: 64, description: 'the housing location or partner location; null for a free address' })),
    address: Nullable(Type.String({ maxLength: 500, description: 'free address text; required for type address' })),
  },
  { additionalProperties: false, $id: 'EventLocation' },
);

export const Event = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    status: StringEnum(EVENT_STATUSES),
    published: Type.Boolean(),
    publishedAt: Nullable(Type.String({ format: 'date-time' })),
    startsAt: Type.String({ format: 'date-time' }),
    endsAt: Type.String({ format: 'date-time' }),
    timeZone: Type.String(),
    location: Nullable(EventLocation),
    capacity: Nullable(Type.Integer({ description: 'places for people going (each with their guests); null: no limit' })),
    placesTaken: Type.Integer({ description: 'attendees going or attended, plus their guests' }),
    campaignId: Nullable(Type.String()),
    animalIds: Type.Array(Type.String(), { description: 'animals that will attend' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Event' },
);
export type EventA = Static<typeof Event>;

const title = Type.String({ minLength: 1, maxLength: 200 });
const description = Type.String({ maxLength: 20000 });
const capacity = Type.Integer({ minimum: 1, maximum: 100000 });
const animalIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true });
const campaignId = Type.String({ minLength: 1, maxLength: 64 });
const timeZone = Type.String({ minLength: 1, maxLength: 64, description: "IANA time zone; defaults to the organization's" });

export const EventCreate = Strict({
  title,
  startsAt: zoned,
  endsAt: zoned,
  description: Type.Optional(description),
  timeZone: Type.Optional(timeZone),
  location: Type.Optional(Nullable(EventLocation)),
  capacity: Type.Optional(Nullable(capacity)),
  campaignId: Type.Optional(Nullable(campaignId)),
  animalIds: Type.Optional(animalIds),
});
export type EventCreateT = Static<typeof EventCreate>;
export const EventUpdate = Strict({
  title: Type.Optional(title),
  startsAt: Type.Optional(zoned),
  endsAt: Type.Optional(zoned),
  description: Type.Optional(description),
  timeZone: Type.Optional(timeZone),
  location: Type.Optional(Nullable(EventLocation)),
  capacity: Type.Optional(Nullable(capacity)),
  campaignId: Type.Optional(Nullable(campaignId)),
  animalIds: Type.Optional(animalIds),
  status: Type.Optional(StringEnum(EVENT_STATUSES)),
});
export type EventUpdateT = Static<typeof EventUpdate>;

export const EventListQuery = Type.Object({
  ...PageQueryA,
  status: Type.Optional(StringEnum(EVENT_STATUSES)),
  published: Type.Optional(Type.Boolean()),
  dateFrom: Type.Optional(DateString({ description: 'events ending on or after this date (organization time zone)' })),
  dateTo: Type.Optional(DateString({ description: 'events starting on or before this date (organization time zone)' })),
});
export type EventListQueryT = Static<typeof EventListQuery>;
export const EventList = Type.Object({ data: Type.Array(Event), meta: MetaA }, { $id: 'EventList' });

export const Attendee = Type.Object(
  {
    eventId: Type.String(),
    personId: Type.String(),
    rsvp: StringEnum(RSVPS),
    guests: Type.Integer(),
    personName: Type.Optional(
      Type.String({
        description:
          "the person's display name (first and last name), in the list only and only when the caller may read People; " +
          'omitted otherwise',
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'EventAttendee' },
);
export const AttendeeList = Type.Object({ data: Type.Array(Attendee), meta: MetaA }, { $id: 'EventAttendeeList' });
export const AttendeePut = Strict({
  rsvp: StringEnum(RSVPS),
  guests: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'people coming with them; default 0' })),
});
export type AttendeePutT = Static<typeof AttendeePut>;
export const AttendeeListQuery = Type.Object({ ...PageQueryA, rsvp: Type.Optional(StringEnum(RSVPS)) });

export const PublicEvent = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String(),
    startsAt: Type.String({ format: 'date-time' }),
    endsAt: Type.String({ format: 'date-time' }),
    timeZone: Type.String(),
    address: Nullable(Type.String({ description: 'only a free address is shown publicly' })),
    placesLeft: Nullable(Type.Integer({ description: 'null when the event has no capacity' })),
  },
  { $id: 'PublicEvent' },
);
export const PublicEventList = Type.Object({ data: Type.Array(PublicEvent), meta: MetaA }, { $id: 'PublicEventList' });
export const PublicEventQuery = Type.Object({
  ...PageQueryA,
  dateFrom: Type.Optional(DateString({ description: 'default today (organization time zone)' })),
  dateTo: Type.Optional(DateString()),
});
