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
