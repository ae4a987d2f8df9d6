export const AREAS = [
  'animals',
  'people',
  'fundraising',
  'communications',
  'shifts',
  'events',
  'forms',
  'tasks',
  'partners',
  'registry',
  'reports',
  'settings',
] as const;
export type Area = (typeof AREAS)[number];
export const LEVELS = ['read', 'write', 'admin'] as const;
export type Level = (typeof LEVELS)[number];
export type Grants = Partial<Record<Area, Level>>;

const RANK: Record<Level, number> = { read: 1, write: 2, admin: 3 };

export function isArea(v: string): v is Area {
  return (AREAS as readonly string[]).includes(v);
}
export function isLevel(v: string): v is Level {
  return (LEVELS as readonly string[]).includes(v);
}
/** A higher level includes the lower ones. */
export function allows(grants: Grants, area: Area, level: Level): boolean {
  const have = grants[area];
  return have !== undefined && RANK[have] >= RANK[level];
}
/**
 * People's contact details (email, phone, address) outside the People area: a key without read on
 * People sees names only, except where a resource is itself a contact list by design (a foster
 * home's person, an auction bidder, a donor's year-end statement).
 */
export function seesContacts(grants: Grants): boolean {
  return allows(grants, 'people', 'read');
}
/** True when every grant of `wanted` is within `holder` (nobody mints a key with more power than they have). */
export function covers(holder: Grants, wanted: Grants): boolean {
  return Object.entries(wanted).every(([area, level]) => allows(holder, area as Area, level));
}

export const BUILT_IN_ROLES: { name: string; grants: Grants }[] = [
  { name: 'admin', grants: Object.fromEntries(AREAS.map((a) => [a, 'admin'])) },
  { name: 'staff', grants: Object.fromEntries(AREAS.map((a) => [a, a === 'settings' ? 'read' : 'write'])) },
  { name: 'read-only', grants: Object.fromEntries(AREAS.map((a) => [a, 'read'])) },
];

export const AREA_LABEL: Record<Area, string> = {
  animals: 'Animals',
  people: 'People',
  fundraising: 'Fundraising',
  communications: 'Communications',
  shifts: 'Shifts',
  events: 'Events',
  forms: 'Forms',
  tasks: 'Tasks',
  partners: 'Partners',
  registry: 'Registry',
  reports: 'Reports',
  settings: 'Settings',
};
export function forbiddenMessage(area: Area, level: Level): string {
  return `This key's role needs ${level} permission on ${AREA_LABEL[area]} for this.`;
}
