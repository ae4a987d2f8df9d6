import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Db, Queryable } from './db/db.ts';
import type { Config } from '../config.ts';
import type { Tenancy, Organization } from './tenancy.ts';
import type { KeyAuth, Principal, SessionAuth } from './auth.ts';
import type { Area, Level } from './permissions.ts';
import { AppError } from './errors.ts';
import type { ModuleHooks } from './hooks.ts';

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What every module gets: the database, the settings, and the shared caches. */
export interface AppContext {
  db: Db;
  config: Config;
  tenancy: Tenancy;
  keys: KeyAuth;
  sessions: SessionAuth;
  /**
   * Clears caches here and in every other process (keys, roles, organizations, settings changed). With the
   * organization whose records changed, caches kept per organization (the public site's answers) forget only its own.
   */
  changed(orgId?: string): Promise<void>;
  /**
   * Runs `fn` whenever caches are cleared, here or because another process announced a change: with the organization
   * the change was announced for, or null when any may have changed (no organization named, a listening connection
   * that was away).
   */
  onChange(fn: (orgId: string | null) => void): void;
  /** Background workers started by modules, stopped on close. */
  onClose(fn: () => Promise<void>): void;
}

/** A domain area: its routes, its background work, its sample data, its part of the API description. */
export interface Module {
  name: string;
  /**
   * What the module listens to and provides through the kernel's hook registry (src/platform/hooks.ts): called once
   * per process, for every module in src/modules/index.ts order, before any route or worker runs. Reactions to
   * another module's events are registered here, never as a side effect of importing a file.
   */
  register?(hooks: ModuleHooks): void;
  routes(app: App, ctx: AppContext): Promise<void> | void;
  /** Background work (queues, listeners) that runs with `npm start`, not in every test app. */
  start?(ctx: AppContext): Promise<void>;
  /** Sample records for `ark seed`, inside the seed's one transaction. */
  seed?(q: Queryable, org: Organization, data: SeedData): Promise<void>;
  /** A paragraph for the introduction of Family A (`a`) and/or Family B (`b`) in the API description. */
  describe?: { a?: string; b?: string };
}

/**
 * What earlier seeders made, for later ones to refer to. The platform names no area: the areas
 * declare their entries by augmenting this interface (see src/modules/seed-data.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SeedData {}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the key's role needs on which area; `also` adds further grants the route needs.
     * A grant of `also` may carry its own `message`, said when that grant is missing (the first
     * missing one with a message wins); otherwise `message` replaces the standard 403 sentence
     * when any grant is missing, and without either the standard sentence names the first missing grant.
     */
    permission?: { area: Area; level: Level; also?: { area: Area; level: Level; message?: string }[]; message?: string };
    /**
     * `true`: no key needed; `'optional'`: a key is used when sent (an invalid one answers 401, and a
     * valid one must hold `permission`), and without one the request is anonymous.
     */
    public?: boolean | 'optional';
    /** A public GET whose 200 answers are kept in the public site's response cache (src/platform/public-cache.ts). */
    publicCache?: boolean;
    /**
     * For a team member signed in to the staff app only (the session cookie): without a session the
     * request answers 401 before its body is read, and an API key answers 401 too.
     */
    session?: boolean;
    /**
     * The body is not read: any content type is taken and the body ignored (a one-click form post
     * from a mail client). Without it a body must be JSON (415), or multipart on an upload route.
     */
    acceptsAnyBody?: boolean;
    /**
     * Served at an organization's address and also at the bare base address (`{base domain}`), where
     * `req.org` is null and a key answers 401 (a key works only at its organization's address).
     */
    anyHost?: boolean;
    /** A request counted by client address goes to this bucket and allowance instead of the shared one. */
    addressLimit?: { bucket: string; perMinute: number };
    /** Served at any address, without an organization (the API descriptions). */
    noTenant?: boolean;
    /**
     * Cheap rule checks (e.g. a status is configured) run on the raw request when its schema
     * fails too, so one 422 names every invalid field at once. Returns field → messages.
     */
    alsoCheck?: (req: FastifyRequest) => Promise<Record<string, string[]>> | Record<string, string[]>;
    /**
     * A GET whose reads tolerate a little replication lag (lists, public pages, reports): with
     * DATABASE_REPLICA_URLS set, `req.db` reads from a replica unless this client wrote in the
     * last few seconds. The handler must read through `req.db`, never inside a transaction.
     */
    readReplica?: boolean;
  }
  interface FastifyRequest {
    org: Organization | null;
    principal: Principal | null;
    /** Where this request reads: a replica for `readReplica` routes (see above), else the primary. */
    db: Queryable;
  }
}

/** The organization and principal of an authenticated request (set by the auth hook). */
export function who(req: FastifyRequest): { org: Organization; principal: Principal; orgId: string; actor: string } {
  if (!req.org || !req.principal) throw new AppError('UNAUTHORIZED', 'An API key is required.');
  return { org: req.org, principal: req.principal, orgId: req.org.id, actor: actorOf(req.principal) };
}
/** Who audit rows name: the signed-in member, or the key. */
export function actorOf(p: Principal): string {
  return p.memberId ? `member:${p.memberId}` : `key:${p.keyId}`;
}
export function orgOf(req: FastifyRequest): Organization {
  if (!req.org) throw new AppError('NOT_FOUND', 'No organization is served at this address.');
  return req.org;
}
