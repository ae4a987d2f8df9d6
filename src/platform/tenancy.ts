import type { Queryable } from './db/db.ts';

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

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const TTL_MS = 30_000;

/** Host → organization, cached briefly; changes elsewhere clear it through `invalidate()`. */
export class Tenancy {
  private cache = new Map<string, { org: Organization | null; at: number }>();
  constructor(private readonly db: Queryable, private readonly baseDomain: string) {}

  /** `demo.localhost:3000` → `demo`; a host that names no organization gives null. */
  slugFromHost(host: string | undefined): string | null {
    if (!host) return null;
    const name = host.replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');
    const suffix = `.${this.baseDomain.toLowerCase()}`;
    if (!name.endsWith(suffix)) return null;
    const slug = name.slice(0, -suffix.length);
    return SLUG_PATTERN.test(slug) ? slug : null;
  }

  async bySlug(slug: string): Promise<Organization | null> {
    const hit = this.cache.get(slug);
    const now = Date.now();
    if (hit && now - hit.at < TTL_MS) return hit.org;
    const rows = await this.db.prepared<Organization>(
      'org_by_slug',
      'SELECT id, slug, name, email, phone, website, currency, time_zone, country FROM organizations WHERE slug = $1',
      [slug],
    );
    const org = rows[0] ?? null;
    this.cache.set(slug, { org, at: now });
    return org;
  }

  invalidate(): void {
    this.cache.clear();
  }
}
