import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

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

/** Addresses never sent to in production: loopback, private, link-local, shared, reserved, multicast. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** True when the address is loopback, private, link-local or otherwise not a public unicast address. */
export function isInternalAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) return blocked.check(address, 'ipv4');
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
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
