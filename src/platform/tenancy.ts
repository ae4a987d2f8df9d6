import { LRUCache } from 'lru-cache';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from './db/db.ts';
import { requestHost } from './request.ts';
import { compiler, statement } from './db/kysely.ts';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  currency: string;
  time_zone: string;
  country: string;
}

const orgBySlug = statement('org_by_slug', (v: { slug: string }) =>
  compiler
    .selectFrom('organizations')
    .select(['id', 'slug', 'name', 'email', 'phone', 'website', 'currency', 'time_zone', 'country'])
    .where('slug', '=', v.slug),
);
const orgCountry = statement('cf_org_country', (v: { orgId: string }) =>
  compiler.selectFrom('organizations').select('country').where('id', '=', v.orgId),
);

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const TTL_MS = 30_000;
/** Organizations (and addresses naming none) remembered at once; the least recently used go first. */
const MAX_CACHED_HOSTS = 5_000;

/**
 * Host → organization, cached briefly and bounded; changes elsewhere clear it through
 * `invalidate()`. A host that is not `{slug}.{base domain}` with an optional port never reaches the
 * database.
 */
export class Tenancy {
  private cache: LRUCache<string, { org: Organization | null }>;
  private readonly hostPattern: RegExp;
  private readonly basePattern: RegExp;
  constructor(
    private readonly db: Queryable,
    baseDomain: string,
    maxCached = MAX_CACHED_HOSTS,
  ) {
    this.cache = new LRUCache({ max: maxCached, ttl: TTL_MS });
    const base = baseDomain
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.hostPattern = new RegExp(`^([a-z0-9][a-z0-9-]{0,62})\\.${base}\\.?(?::\\d{1,5})?$`);
    this.basePattern = new RegExp(`^${base}\\.?(?::\\d{1,5})?$`);
  }

  /** `localhost:3000` (the base domain itself, optional port): the address that names no organization. */
  isBaseHost(host: string | undefined): boolean {
    return !!host && host.length <= 320 && this.basePattern.test(host.toLowerCase());
  }

  /** `demo.localhost:3000` → `demo`; a host that is not an organization address gives null. */
  slugFromHost(host: string | undefined): string | null {
    if (!host || host.length > 320) return null;
    const m = this.hostPattern.exec(host.toLowerCase());
    return m?.[1] ?? null;
  }

  async bySlug(slug: string): Promise<Organization | null> {
    if (!SLUG_PATTERN.test(slug)) return null;
    const hit = this.cache.get(slug);
    if (hit) return hit.org;
    const rows = await orgBySlug(this.db, { slug });
    const org = rows[0] ?? null;
    this.cache.set(slug, { org });
    return org;
  }

  /**
   * The organization a request's address names, or null. The kernel does this for every /api route (`req.org`);
   * pages outside /api (public website, forms, signing links) ask here, so every part resolves an address one way.
   */
  async forRequest(req: FastifyRequest): Promise<Organization | null> {
    const slug = this.slugFromHost(requestHost(req));
    return slug ? this.bySlug(slug) : null;
  }

  /**
   * `forRequest` at once, without a promise, when the address's answer is remembered (as it is for nearly every
   * request); `undefined` when it is not, and `forRequest` must read it.
   */
  rememberedForRequest(req: FastifyRequest): Organization | null | undefined {
    const slug = this.slugFromHost(requestHost(req));
    if (!slug || !SLUG_PATTERN.test(slug)) return null;
    return this.cache.get(slug)?.org;
  }

  /** How many addresses are remembered now (bounded by the constructor's `maxCached`). */
  get cachedHosts(): number {
    return this.cache.size;
  }

  invalidate(): void {
    this.cache.clear();
  }
}

/**
 * The organization's country (ISO 3166-1 alpha-2), the default for phone numbers and addresses; null when unknown. A
 * fact of the organization every layer may need (custom fields sit below settings), so the kernel reads it.
 */
export async function organizationCountry(q: Queryable, orgId: string): Promise<string | null> {
  const rows = await orgCountry(q, { orgId });
  return rows[0]?.country ?? null;
}
