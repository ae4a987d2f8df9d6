/** Every setting Ark reads from its environment, in one place (listed in the README). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * A direct connection to PostgreSQL (DATABASE_DIRECT_URL) for what needs a session of its own — LISTEN, the
   * migration lock — when DATABASE_URL goes through a pooler in transaction-pooling mode. Default: DATABASE_URL.
   */
  databaseDirectUrl: string | undefined;
  /**
   * Named prepared statements over DATABASE_URL (DATABASE_PREPARED_STATEMENTS=on|off). Default: on, off when
   * DATABASE_DIRECT_URL names another address (a pooler that does not keep them, such as PgBouncer before 1.21).
   */
  dbNamedStatements: boolean | undefined;
  /** Streaming replicas for lag-tolerant reads (DATABASE_REPLICA_URLS, comma-separated). */
  replicaUrls: string[];
  /** After a write, that client's reads stay on the primary this long (ms). */
  replicaStickyMs: number;
  dataDir: string;
  dbPoolSize: number;
  baseDomain: string;
  mailDomain: string;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  /** Requests a minute per client address for traffic without a valid key. */
  publicRateLimitPerMinute: number;
  /** Keyless registry microchip lookups a minute per client address (their own allowance). */
  registryLookupRateLimitPerMinute: number;
  /**
   * Secret for the registry's keyed hashes (flag matching data, searchers' addresses). Must stay the
   * same across restarts and processes; changing it makes existing flags unmatchable.
   */
  registrySecret: string;
  /** Fastify's `trustProxy`: false, true, a number of hops, or addresses/CIDRs of trusted proxies. */
  trustProxy: boolean | number | string[];
  /** Origins allowed to call the API from a browser (CORS); empty: none. */
  corsOrigins: string[];
  smtpInboundPort: number;
  smtpProviders: string | undefined;
  publicUrl: string | undefined;
  logLevel: string;
  /** Uploaded files: an S3-compatible bucket when ARK_S3_BUCKET is set, else a folder under dataDir. */
  s3: S3Config | undefined;
  /** Largest photo (ARK_PHOTO_MAX_MB) and document (ARK_DOCUMENT_MAX_MB) accepted, in bytes. */
  photoMaxBytes: number;
  documentMaxBytes: number;
  /**
   * ARK_WEBHOOKS_ALLOW_INSECURE=1: webhook endpoints may use http and loopback or private addresses
   * (development and tests only; in production only https to public addresses is sent to).
   */
  webhooksAllowInsecure: boolean;
  /** Tests only (never read from the environment): the folder blob store writes every file through this one, e.g. `/dev/full`. */
  blobWriteThrough?: string;
  /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before their connections are closed (s). */
  shutdownGraceSeconds: number;
}

/** An S3-compatible store (AWS S3, MinIO, Ceph, R2...), addressed path-style. */
export interface S3Config {
  bucket: string;
  /** e.g. http://127.0.0.1:9000; unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither; neither: the AWS SDK's usual credential chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

const MIB = 1024 * 1024;

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** `ARK_TRUST_PROXY`: `true`/`false`, a number of proxy hops, or comma-separated addresses or CIDRs. */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function onOff(value: string | undefined): boolean | undefined {
  const v = value?.trim().toLowerCase();
  if (v === 'on' || v === 'true' || v === '1') return true;
  if (v === 'off' || v === 'false' || v === '0') return false;
  return undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const baseDomain = env.ARK_BASE_DOMAIN || 'localhost';
  return {
    port: int(env.PORT, 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    dbNamedStatements: onOff(env.DATABASE_PREPARED_STATEMENTS),
    replicaUrls: (env.DATABASE_REPLICA_URLS ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    replicaStickyMs: int(env.ARK_REPLICA_STICKY_MS, 5000),
    dataDir: env.ARK_DATA_DIR || './data',
    dbPoolSize: int(env.ARK_DB_POOL_SIZE, 20),
    baseDomain,
    mailDomain: env.ARK_MAIL_DOMAIN || baseDomain,
    redisUrl: env.REDIS_URL || undefined,
    rateLimitPerMinute: int(env.ARK_RATE_LIMIT_PER_MINUTE, 600),
    publicRateLimitPerMinute: int(env.ARK_PUBLIC_RATE_LIMIT_PER_MINUTE, 300),
    registryLookupRateLimitPerMinute: int(env.ARK_REGISTRY_LOOKUP_RATE_LIMIT_PER_MINUTE, 30),
    registrySecret: env.ARK_REGISTRY_SECRET || 'ark-development-registry-secret',
    trustProxy: parseTrustProxy(env.ARK_TRUST_PROXY),
    corsOrigins: list(env.ARK_CORS_ORIGINS),
    smtpInboundPort: int(env.ARK_SMTP_INBOUND_PORT, 2525),
    smtpProviders: env.ARK_SMTP_PROVIDERS || undefined,
    publicUrl: env.ARK_PUBLIC_URL || undefined,
    logLevel: env.ARK_LOG_LEVEL || 'info',
    s3: env.ARK_S3_BUCKET
      ? {
          bucket: env.ARK_S3_BUCKET,
          endpoint: env.ARK_S3_ENDPOINT || undefined,
          region: env.ARK_S3_REGION || 'us-east-1',
          accessKeyId: env.ARK_S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.ARK_S3_SECRET_ACCESS_KEY || undefined,
        }
      : undefined,
    photoMaxBytes: int(env.ARK_PHOTO_MAX_MB, 15) * MIB,
    documentMaxBytes: int(env.ARK_DOCUMENT_MAX_MB, 25) * MIB,
    webhooksAllowInsecure: env.ARK_WEBHOOKS_ALLOW_INSECURE === '1' || env.ARK_WEBHOOKS_ALLOW_INSECURE === 'true',
    shutdownGraceSeconds: int(env.ARK_SHUTDOWN_GRACE_SECONDS, 25),
  };
}
