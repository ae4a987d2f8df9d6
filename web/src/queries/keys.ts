/**
 * Every query key of the staff app's data hooks comes from this one factory, so a write invalidates exactly what it
 * changed. A key starts with its domain; a record's `all` key is the prefix of every key under that record, so
 * invalidating it refreshes the record and each list read for it.
 */
export const keys = {
  /** Lists and searches over many animals; `animals.all` refreshes every one of them. */
  animals: {
    all: ['animals'] as const,
    cards: (...filters: unknown[]) => ['animals', 'cards', ...filters] as const,
    count: (careState: string) => ['animals', 'count', careState] as const,
    chip: (number: string) => ['animals', 'chip', number] as const,
    pick: () => ['animals', 'pick'] as const,
    lookup: (q: string) => ['animals', 'lookup', q] as const,
    one: (id: string) => ['animals', 'one', id] as const,
  },
  /** Adoption applications: `applications.all` refreshes every list and every application read. */
  applications: {
    all: ['applications'] as const,
    list: (filters: object) => ['applications', 'list', filters] as const,
    one: (id: string) => ['applications', id] as const,
    contracts: (id: string) => ['applications', id, 'contracts'] as const,
  },
  /** Adoptions (trial, adopted, returned): `adoptions.all` refreshes every list of them. */
  adoptions: {
    all: ['adoptions'] as const,
    list: (filters: object) => ['adoptions', 'list', filters] as const,
  },
  applicationStages: ['application-stages'] as const,
  contractTemplates: ['contract-templates'] as const,
  adoptionFee: (animalId: string, specialNeeds: boolean) => ['adoption-fee', animalId, specialNeeds] as const,
  /** Lists and searches over people (Family A); `people.all` refreshes every one of them. */
  people: {
    all: ['people'] as const,
    list: (page: number, q: string, role: string) => ['people', 'list', page, q, role] as const,
    one: (id: string | null | undefined) => ['people', 'one', id] as const,
    similar: (query: unknown) => ['people', 'similar', query] as const,
    pick: (q: string, role: unknown) => ['people', 'pick', q, role] as const,
    dupes: (probe: unknown) => ['people', 'dupes', probe] as const,
  },
  /** One person: `person.all(id)` is their Family A record and the prefix of everything read for them; `person.every` every person's. */
  person: {
    every: ['person'] as const,
    all: (id: string) => ['person', id] as const,
    part: (id: string, part: PersonPart) => ['person', id, part] as const,
  },
  /** Updates fosters send from the portal: `fosterUpdates.all` refreshes every review queue. */
  fosterUpdates: {
    all: ['foster-updates'] as const,
    list: (status: string) => ['foster-updates', 'list', status] as const,
  },
  /** Which parts of the portal the organization offers and what it shares. */
  portalSettings: ['portal-settings'] as const,
  /** The signed-in member, their organization and grants. */
  session: ['session'] as const,
  /** Medical care across the organization (what is due); `medical.all` refreshes every due list. */
  medical: {
    all: ['medical'] as const,
    due: (filters: object) => ['medical', 'due', filters] as const,
  },
  /** Tasks: `tasks.all` refreshes every list of them. */
  tasks: {
    all: ['tasks'] as const,
    list: (filters: object) => ['tasks', 'list', filters] as const,
  },
  /** The organization's calendar (tasks, events, stays by day): `calendar.all` refreshes every week read. */
  calendar: {
    all: ['calendar'] as const,
    week: (from: string) => ['calendar', from] as const,
  },
  /** Conversations with the public: `inbox.all` refreshes every list and conversation. */
  inbox: {
    all: ['inbox'] as const,
    list: (status: string) => ['inbox', 'list', status] as const,
    conversation: (id: string) => ['inbox', 'conversation', id] as const,
  },
  /** Volunteer shifts: `shifts.all` refreshes every calendar read. */
  shifts: {
    all: ['shifts'] as const,
    calendar: (from: string, to: string) => ['shifts', 'calendar', from, to] as const,
  },
  /** Transport runs: one board of them. */
  transports: ['transports'] as const,
  /** Stays whose intake or outcome falls in a month (the dashboard's chart). */
  staysInMonth: (from: string) => ['stays', 'month', from] as const,
  /** The organization's team members and the roles they can have. */
  members: ['members'] as const,
  roles: ['roles'] as const,
  /** Message templates: `templates.all` refreshes every list, template and fill. */
  templates: {
    all: ['templates'] as const,
    list: (status: string) => ['templates', 'list', status] as const,
    one: (id: string) => ['templates', id] as const,
    fill: (template: string | null, personId: string, animalId: string | null) =>
      ['templates', 'fill', template, personId, animalId] as const,
  },
  /** The message log: `messages.all` refreshes every page of it. */
  messages: {
    all: ['messages'] as const,
    log: (filters: object) => ['messages', 'log', filters] as const,
  },
  /** The organization's profile, its API keys and its animal statuses. */
  organization: ['organization'] as const,
  apiKeys: ['keys'] as const,
  statuses: ['statuses'] as const,
  /** How stay subtypes map to SAC categories. */
  stayStatusMap: ['stay-status-map'] as const,
  /** Intake and outcome subtypes: `staySubtypes.all` refreshes every list. */
  staySubtypes: {
    all: ['stay-subtypes'] as const,
    list: (kind: string, includeRetired: boolean) => ['stay-subtypes', kind, includeRetired] as const,
  },
  /** Custom field definitions: `customFields.all` refreshes every list, of every area. */
  customFields: {
    all: ['custom-fields'] as const,
    list: (path: string, includeRetired: boolean) => ['custom-fields', path, includeRetired] as const,
    entity: (entity: string) => ['custom-fields', 'entity', entity] as const,
  },
  /** Care catalogues (breeds, age groups, behaviour attributes, medical items): `catalogue.of(kind)` refreshes one. */
  catalogue: {
    of: (kind: 'breeds' | 'ages' | 'traits' | 'medical') => ['catalogue', kind] as const,
    list: (kind: 'breeds' | 'ages' | 'traits' | 'medical', species: string) => ['catalogue', kind, species] as const,
  },
  /** Medical protocols. */
  protocols: ['protocols'] as const,
  /** Housing: locations with their units and occupants; `housing.all` refreshes every read of them. */
  housing: {
    all: ['housing'] as const,
    locations: ['housing', 'locations'] as const,
    units: ['housing', 'units'] as const,
  },
  /** Foster homes: `foster.all` refreshes every list and home. */
  foster: {
    all: ['foster'] as const,
    homes: (available: boolean) => ['foster', 'homes', available] as const,
    home: (id: string) => ['foster', 'home', id] as const,
  },
  /** Fundraising: campaigns, donations, donors, the wish list; `fundraising.all` refreshes every one of them. */
  fundraising: {
    all: ['fundraising'] as const,
    campaigns: ['fundraising', 'campaigns'] as const,
    donations: ['fundraising', 'donations'] as const,
    donors: ['fundraising', 'donors'] as const,
    wishes: ['fundraising', 'wishes'] as const,
  },
  /** Auctions: `auctions.all` refreshes every list, lot, bid and bidder read. */
  auctions: {
    all: ['auctions'] as const,
    list: ['auctions', 'list'] as const,
    lots: (id: string | null) => ['auctions', id, 'lots'] as const,
    bids: (id: string, lotId: string) => ['auctions', id, 'bids', lotId] as const,
    bidders: (id: string) => ['auctions', id, 'bidders'] as const,
  },
  /** Community events: `events.all` refreshes every list, event and attendee list. */
  events: {
    all: ['events'] as const,
    list: (status: string) => ['events', 'list', status] as const,
    one: (id: string) => ['events', 'one', id] as const,
    attendees: (id: string) => ['events', 'attendees', id] as const,
  },
  /** The shared registry of flagged people: `registry.flags` refreshes every list of the organization's flags. */
  registry: {
    flags: ['registry-flags'] as const,
    flagList: (status: string) => ['registry-flags', status] as const,
    history: (flagId: string) => ['registry-history', flagId] as const,
    matches: (personId: string | null) => ['registry-matches', personId] as const,
    check: (personId: string) => ['registry-check', personId] as const,
    chip: (number: string) => ['registry-chip', number] as const,
    settings: ['registry-settings'] as const,
  },
  /** Partner organizations: `partners.all` refreshes every list and every partner's locations and affiliations. */
  partners: {
    all: ['partners'] as const,
    list: (kind: string, q: string) => ['partners', 'list', kind, q] as const,
    part: (part: 'locations' | 'affiliations', id: string) => ['partners', part, id] as const,
  },
  /** Adoption settings: fee schedules, return windows, the contract merge fields. */
  feeSchedules: ['fee-schedules'] as const,
  adoptionSettings: ['adoption-settings'] as const,
  contractMergeFields: ['contract-merge-fields'] as const,
  /** A contract template's versions, under `contractTemplates` so a template change refreshes them. */
  contractTemplateVersions: (id: string, version: number) => ['contract-templates', id, 'versions', version] as const,
  /** The public site's look and the listing feeds (syndication). */
  publicSite: ['public-site'] as const,
  syndication: ['syndication'] as const,
  /** Webhook endpoints: `webhooks.all` refreshes the list and every endpoint's deliveries. */
  webhooks: {
    all: ['webhooks'] as const,
    list: ['webhooks', 'list'] as const,
    deliveries: (id: string) => ['webhooks', id, 'deliveries'] as const,
  },
  /** Public forms and their submissions: `forms.all` refreshes every form, list and submission read. */
  forms: {
    all: ['forms'] as const,
    list: ['forms', 'list'] as const,
    one: (id: string | null | undefined) => ['forms', 'one', id] as const,
    submissions: (filters: object) => ['forms', 'submissions', filters] as const,
    submission: (id: string | null) => ['forms', 'submission', id] as const,
    matches: (id: string) => ['forms', 'matches', id] as const,
  },
  /** Spreadsheet imports and moves from another system. */
  imports: {
    run: (target: string, id: string | null) => ['import-run', target, id] as const,
    mappings: (target: string) => ['import-mappings', target] as const,
  },
  movingRun: (id: string | null) => ['moving-run', id] as const,
  /** A one-time sign-in link (an invitation or a password reset). */
  link: (token: string) => ['link', token] as const,
  /** Reports: the catalogue, each report run with its parameters, schedules and SAC submissions. */
  reports: {
    catalogue: ['reports', 'catalogue'] as const,
    run: (key: string, params: unknown) => ['reports', key, params] as const,
    schedules: ['reports', 'schedules'] as const,
    sacSubmissions: ['reports', 'sac-submissions'] as const,
    sacSubmission: (id: string) => ['reports', 'sac-submission', id] as const,
  },
  /** The medical catalogue as the animal's record form offers it. */
  medicalItems: ['medical-items'] as const,
  /** One animal: `animal.all(id)` is its Family A record and the prefix of every list read for it. */
  animal: {
    all: (id: string) => ['animal', id] as const,
    part: (id: string, part: AnimalPart) => ['animal', id, part] as const,
  },
};

/** What is read for one animal besides its record, each under its own key. */
export type AnimalPart =
  | 'card'
  | 'name'
  | 'stays'
  | 'weights'
  | 'notes'
  | 'medical'
  | 'holds'
  | 'photos'
  | 'documents'
  | 'foster-assignments'
  | 'transports'
  | 'applications'
  | 'adoptions';

/** What is read for one person besides their Family A record, each under its own key. */
export type PersonPart =
  | 'name'
  | 'family-b'
  | 'contacts'
  | 'addresses'
  | 'notes'
  | 'donations'
  | 'foster-homes'
  | 'bookings'
  | 'messages'
  | 'similar'
  | 'portal-account'
  | 'volunteer-status';
