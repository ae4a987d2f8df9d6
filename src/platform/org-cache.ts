/**
 * Small per-organization facts that every write of a hot path needs and that change rarely (custom field
 * definitions, the registry settings, which species have medical protocols), kept in each process for
 * `ttlMs` (30 s) and cleared in every process at once when any of them changes: the module's write route
 * calls `ctx.changed()` after its transaction commits, which clears them here and announces the change
 * to the other processes (src/platform/cache-bus.ts).
 *
 * A value read while a change commits is not kept: each clear starts a new generation, and a read
 * that began in an earlier one answers its caller but is not stored.
 */
const caches = new Set<OrgCache<unknown>>();

export class OrgCache<T> {
  private entries = new Map<string, { at: number; value: T }>();
  private generation = 0;
  constructor(
    private readonly ttlMs = 30_000,
    private readonly max = 5_000,
  ) {
    caches.add(this);
  }

  /** The cached value under `key` (an organization id, or one with a suffix), else `load()`'s, kept. */
  async get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) {
      this.entries.delete(key);
      // Oldest first out: a Map iterates in insertion order.
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { at: Date.now(), value });
    }
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** Clears every OrgCache of this process (called with the kernel's other caches, on any announced change). */
export function clearOrgCaches(): void {
  for (const c of caches) c.clear();
}
