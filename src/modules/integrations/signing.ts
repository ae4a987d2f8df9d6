import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
// ipaddr.js: fastify's proxy-addr uses it; Ark reads addresses with it (listed in package.json's dependencies).
import ipaddr from 'ipaddr.js';

/** A new endpoint secret: `whsec_` + base64 of 24 random bytes (the Standard Webhooks form). */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks signature: HMAC-SHA256, keyed with the base64-decoded part of the secret after
 * `whsec_`, over `${id}.${timestamp}.${body}`, sent as `v1,<base64>`.
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Checks a `webhook-signature` header (space-separated `v1,<sig>` entries) as a receiver would. */
export function verify(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const want = Buffer.from(sign(secret, id, timestamp, body));
  return header.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}

/**
 * True when the address is not a public unicast address: loopback, private, link-local, shared (CGNAT), reserved,
 * documentation, multicast, unspecified, or any of those written another way. The address is read by a real
 * parser (ipaddr.js), so every IPv6 spelling counts: IPv4-mapped (`::ffff:7f00:1`, `::ffff:127.0.0.1`) and
 * IPv4-compatible (`::7f00:1`) addresses are judged by the IPv4 address inside them, and 6to4 (`2002:7f00:1::1`),
 * Teredo, NAT64, site-local (`fec0::1`), unique-local and the other special ranges are refused whole. Only what the
 * parser calls plain `unicast` passes; something that is not an address at all is internal too.
 */
export function isInternalAddress(address: string): boolean {
  if (!isIP(address.replace(/%.*$/, ''))) return true;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isInternalAddress(v6.toIPv4Address().toString());
    // IPv4-compatible (::a.b.c.d, deprecated): never a public destination.
    if (v6.parts.slice(0, 6).every((p) => p === 0)) return true;
  }
  return ip.range() !== 'unicast';
}

/**
 * Checks an endpoint URL when it is saved: https (http too when insecure endpoints are allowed), no
 * credentials, and, when the host is an address, a public one. Names are checked again on every send,
 * on the address they resolve to then. Returns the problem, or null.
 */
export function urlProblem(raw: string, allowInsecure: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'https:' && !(allowInsecure && u.protocol === 'http:')) return 'must be an https URL';
  if (u.username || u.password) return 'must not carry a user name or password';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowInsecure) {
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal'))
      return 'must not point at a local or internal host';
    if (isIP(host) && isInternalAddress(host)) return 'must not point at a loopback, private or link-local address';
  }
  return null;
}
