import { createHash } from 'node:crypto';
import type { Queryable } from './db/db.ts';
import type { Grants } from './permissions.ts';
import { KEY_PATTERN } from './ids.ts';

export interface Principal {
  keyId: string;
  roleId: string;
  roleName: string;
  grants: Grants;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

const TTL_MS = 30_000;
const TOUCH_MS = 60_000;
const MAX_CACHED = 10_000;

/**
 * API key → principal, scoped by organization (a key of another organization is simply not
 * found). Cached briefly; revocation and role changes clear the cache in every process
 * (LISTEN/NOTIFY, see platform/cache-bus.ts).
 */
export class KeyAuth {
  private cache = new Map<string, { principal: Principal; at: number; touched: number }>();
  constructor(private readonly db: Queryable) {}

  async resolve(orgId: string, key: string): Promise<Principal | null> {
    if (!KEY_PATTERN.test(key)) return null;
    // Cached by the key itself (in this process's memory only) so a hit needs no hashing.
    const cacheKey = `${orgId}:${key}`;
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && now - hit.at < TTL_MS) {
      if (now - hit.touched > TOUCH_MS) {
        hit.touched = now;
        this.touch(orgId, hit.principal.keyId);
      }
      return hit.principal;
    }
    const hash = hashKey(key);
    const rows = await this.db.prepared<{ id: string; role_id: string; name: string; grants: Grants }>(
      'key_by_hash',
      `SELECT k.id, k.role_id, r.name, r.grants FROM api_keys k
         JOIN roles r ON r.organization_id = k.organization_id AND r.id = k.role_id
        WHERE k.organization_id = $1 AND k.key_hash = $2 AND k.revoked_at IS NULL`,
      [orgId, hash],
    );
    const row = rows[0];
    if (!row) return null; // unknown keys are not cached: guessed keys cannot grow this process's memory
    const principal = { keyId: row.id, roleId: row.role_id, roleName: row.name, grants: row.grants };
    const prev = hit?.touched ?? 0;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(cacheKey, { principal, at: now, touched: now - prev > TOUCH_MS ? now : prev });
    if (now - prev > TOUCH_MS) this.touch(orgId, principal.keyId);
    return principal;
  }

  /** Records when a key was last used, at most once a minute per key and off the request path. */
  private touch(orgId: string, keyId: string): void {
    this.db.query('UPDATE api_keys SET last_used_at = now() WHERE organization_id = $1 AND id = $2', [orgId, keyId]).catch(() => undefined);
  }

  invalidate(): void {
    this.cache.clear();
  }
}
