import { createHash } from 'node:crypto';
import type { Queryable } from './db/db.ts';
import type { Grants } from './permissions.ts';
import { KEY_PATTERN } from './ids.ts';
import { maybeUse, slot } from './hooks.ts';
import { compiler, sql, statement } from './db/kysely.ts';

/**
 * What the kernel's sign-in asks the owners of the access tables to record: a key's last use (settings owns api_keys)
 * and a session's last activity (members owns member_sessions). The owners provide these in their Module.register;
 * the kernel reads the access tables to authenticate a request but writes none of them.
 */
export interface AccessUse {
  /** Marks the key used now (at most once a minute per key; off the request path). */
  keyUsed(q: Queryable, orgId: string, keyId: string): Promise<void>;
}
export interface SessionUse {
  /** Marks the session active now (at most once a minute per session; off the request path). */
  sessionSeen(q: Queryable, orgId: string, sessionId: string): Promise<void>;
}
export const keyUse = slot<AccessUse>('auth.key-use');
export const sessionUse = slot<SessionUse>('auth.session-use');

export interface Principal {
  /** The key's id; for a signed-in member's session, the member's id (its rate-limit bucket). */
  keyId: string;
  roleId: string;
  roleName: string;
  grants: Grants;
  /** Set when a team member's session (the cookie) authenticated the request: audit rows name the member. */
  memberId?: string;
  sessionId?: string;
}

const RANK = { read: 1, write: 2, admin: 3 } as const;
/** The grants both hold: a member's key never exceeds the member's role, whatever role the key was made under. */
export function intersectGrants(a: Grants, b: Grants): Grants {
  const out: Grants = {};
  for (const [area, level] of Object.entries(a) as [keyof Grants, keyof typeof RANK][]) {
    const other = b[area];
    if (other) out[area] = RANK[other] < RANK[level] ? other : level;
  }
  return out;
}

/** The cookie that carries a team member's session (scoped to the organization's host: no Domain attribute). */
export const SESSION_COOKIE = 'ark_session';
export const SESSION_PATTERN = /^[A-Za-z0-9]{43}$/;
/** A session ends 14 days after sign-in, or after 3 days unused, whichever comes first. */
export const SESSION_DAYS = 14;
export const SESSION_IDLE_DAYS = 3;

/** A live session of an active member, with the member's role (`stale`: its last activity is worth recording again). */
const sessionByHash = statement('session_by_hash', (v: { orgId: string; hash: string }) =>
  compiler
    .selectFrom('member_sessions as s')
    .innerJoin('members as m', (j) => j.onRef('m.organization_id', '=', 's.organization_id').onRef('m.id', '=', 's.member_id'))
    .innerJoin('roles as r', (j) => j.onRef('r.organization_id', '=', 'm.organization_id').onRef('r.id', '=', 'm.role_id'))
    .select([
      's.id',
      's.member_id',
      'm.role_id',
      'r.name',
      sql<Grants>`r.grants`.as('grants'),
      sql<boolean>`s.last_seen_at < now() - interval '1 minute'`.as('stale'),
    ])
    .where('s.organization_id', '=', v.orgId)
    .where('s.token_hash', '=', v.hash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('s.last_seen_at', '>', sql<Date>`now() - interval ${sql.lit(`${SESSION_IDLE_DAYS} days`)}`)
    .where('m.status', '=', sql.lit('active')),
);

/**
 * Session token → principal with the member's role. Read from PostgreSQL on every request (no
 * cache), so signing out, disabling a member or changing a role reaches every process at once.
 */
export class SessionAuth {
  constructor(private readonly db: Queryable) {}

  async resolve(orgId: string, token: string): Promise<Principal | null> {
    if (!SESSION_PATTERN.test(token)) return null;
    const rows = await sessionByHash(this.db, { orgId, hash: hashKey(token) });
    const row = rows[0];
    if (!row) return null;
    if (row.stale)
      maybeUse(sessionUse)
        ?.sessionSeen(this.db, orgId, row.id)
        .catch(() => undefined);
    return {
      keyId: row.member_id,
      roleId: row.role_id,
      roleName: row.name,
      grants: row.grants,
      memberId: row.member_id,
      sessionId: row.id,
    };
  }
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

/** A key not revoked, with its role, and for a member's key the member's status and role's grants. */
const keyByHash = statement('key_by_hash', (v: { orgId: string; hash: string }) =>
  compiler
    .selectFrom('api_keys as k')
    .innerJoin('roles as r', (j) => j.onRef('r.organization_id', '=', 'k.organization_id').onRef('r.id', '=', 'k.role_id'))
    .leftJoin('member_keys as mk', (j) => j.onRef('mk.organization_id', '=', 'k.organization_id').onRef('mk.key_id', '=', 'k.id'))
    .leftJoin('members as m', (j) => j.onRef('m.organization_id', '=', 'mk.organization_id').onRef('m.id', '=', 'mk.member_id'))
    .leftJoin('roles as mr', (j) => j.onRef('mr.organization_id', '=', 'm.organization_id').onRef('mr.id', '=', 'm.role_id'))
    .select([
      'k.id',
      'k.role_id',
      'r.name',
      sql<Grants>`r.grants`.as('grants'),
      'm.status as member_status',
      sql<Grants | null>`mr.grants`.as('member_grants'),
    ])
    .where('k.organization_id', '=', v.orgId)
    .where('k.key_hash', '=', v.hash)
    .where('k.revoked_at', 'is', null),
);

/**
 * API key → principal, scoped by organization (a key of another organization is simply not
 * found). Cached briefly; revocation and role changes clear the cache in every process
 * (LISTEN/NOTIFY, see platform/cache-bus.ts).
 */
export class KeyAuth {
  private cache = new Map<string, { principal: Principal; at: number; touched: number }>();
  constructor(private readonly db: Queryable) {}

  /**
   * The key's principal when this process resolved it within the last 30 s (nearly every request of a script or an
   * integration), at once and without a promise; null when `resolve` must read it.
   */
  remembered(orgId: string, key: string): Principal | null {
    const now = Date.now();
    const hit = this.cache.get(`${orgId}:${key}`);
    if (!hit || now - hit.at >= TTL_MS) return null;
    if (now - hit.touched > TOUCH_MS) {
      hit.touched = now;
      this.touch(orgId, hit.principal.keyId);
    }
    return hit.principal;
  }

  async resolve(orgId: string, key: string): Promise<Principal | null> {
    if (!KEY_PATTERN.test(key)) return null;
    // Cached by the key itself (in this process's memory only) so a hit needs no hashing.
    const known = this.remembered(orgId, key);
    if (known) return known;
    const cacheKey = `${orgId}:${key}`;
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    const hash = hashKey(key);
    // A key a member made is capped by the member's role now (not the role at the time), and stops
    // working while the member is not active.
    const rows = await keyByHash(this.db, { orgId, hash });
    const row = rows[0];
    if (!row) return null; // unknown keys are not cached: guessed keys cannot grow this process's memory
    if (row.member_status !== null && row.member_status !== 'active') return null;
    const grants = row.member_grants ? intersectGrants(row.grants, row.member_grants) : row.grants;
    const principal = { keyId: row.id, roleId: row.role_id, roleName: row.name, grants };
    const prev = hit?.touched ?? 0;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(cacheKey, { principal, at: now, touched: now - prev > TOUCH_MS ? now : prev });
    if (now - prev > TOUCH_MS) this.touch(orgId, principal.keyId);
    return principal;
  }

  /** Records when a key was last used, at most once a minute per key and off the request path. */
  private touch(orgId: string, keyId: string): void {
    maybeUse(keyUse)
      ?.keyUsed(this.db, orgId, keyId)
      .catch(() => undefined);
  }

  invalidate(): void {
    this.cache.clear();
  }
}
