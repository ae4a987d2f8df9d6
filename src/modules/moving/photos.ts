import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Downloading a source's photos during the real run. Only http and https; the host is resolved once and the
 * connection goes to the address checked (a move cannot be pointed at loopback, private or link-local addresses,
 * nor at one a second DNS answer would give); at most `maxBytes`; an image content type; a timeout for the whole
 * download. Tests allow loopback (`allowInternal`) to serve their own images.
 */
export const photoFetchOptions = {
  allowInternal: false,
  timeoutMs: 20_000,
  /** Downloads at a time within a batch. */
  concurrency: 4,
  /** Photos per batch (each a download and a decode): smaller than the other kinds' batches. */
  batch: 100,
};

const internal = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  internal.addSubnet(net, bits, 'ipv6');

/** Loopback, private, link-local, multicast or reserved (IPv4-mapped IPv6 addresses by their IPv4 address). */
export function isInternalAddress(address: string): boolean {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return internal.check(v4, 'ipv4');
  return isIP(address) === 6 ? internal.check(address, 'ipv6') : internal.check(address, 'ipv4');
}

export interface Fetched {
  data: Buffer;
  contentType: string;
  filename: string | null;
}

/** Downloads one photo, or throws an Error whose message says why not (shown as the row's refusal). */
export async function fetchPhoto(url: string, maxBytes: number, redirects = 3): Promise<Fetched> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${url} is not an address`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${url} is not an http or https address`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  let address = host;
  let family = isIP(host);
  if (!family) {
    const found = await lookup(host, { all: true }).catch((err: Error) => {
      throw new Error(`could not resolve ${host}: ${err.message}`);
    });
    const first = found[0];
    if (!first) throw new Error(`could not resolve ${host}`);
    if (!photoFetchOptions.allowInternal && found.some((a) => isInternalAddress(a.address)))
      throw new Error(`refused: ${host} resolves to an internal address`);
    address = first.address;
    family = first.family;
  }
  if (!photoFetchOptions.allowInternal && isInternalAddress(address)) throw new Error(`refused: ${address} is an internal address`);
  const lib = u.protocol === 'https:' ? https : http;
  const res = await new Promise<Fetched | { redirect: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${photoFetchOptions.timeoutMs / 1000} s`));
    }, photoFetchOptions.timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const req = lib.get(
      u,
      {
        headers: { 'user-agent': 'Ark-Moving/1', accept: 'image/*' },
        lookup: (_h, _o, cb) => cb(null, address, family),
        timeout: photoFetchOptions.timeoutMs,
      },
      (r) => {
        const status = r.statusCode ?? 0;
        if (status >= 300 && status < 400 && r.headers.location) {
          r.resume();
          clearTimeout(timer);
          resolve({ redirect: new URL(r.headers.location, u).toString() });
          return;
        }
        if (status !== 200) {
          r.resume();
          fail(new Error(`the server answered ${status}`));
          return;
        }
        const type = String(r.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim()
          .toLowerCase();
        if (!type?.startsWith('image/')) {
          r.resume();
          fail(new Error(`is not an image (${type || 'no content type'})`));
          return;
        }
        const declared = Number(r.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          r.resume();
          fail(new Error(`is larger than ${Math.round(maxBytes / 1048576)} MB`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        r.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            r.destroy();
            fail(new Error(`is larger than ${Math.round(maxBytes / 1048576)} MB`));
            return;
          }
          chunks.push(c);
        });
        r.on('end', () => {
          clearTimeout(timer);
          const name = decodeURIComponent(u.pathname.split('/').pop() ?? '').slice(0, 200);
          resolve({ data: Buffer.concat(chunks), contentType: type, filename: name || null });
        });
        r.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${photoFetchOptions.timeoutMs / 1000} s`)));
    req.on('error', fail);
  });
  if ('redirect' in res) {
    if (redirects <= 0) throw new Error('too many redirects');
    return fetchPhoto(res.redirect, maxBytes, redirects - 1);
  }
  return res;
}

/** Runs `fn` over the items, `n` at a time, answering in the items' order. */
export async function pooled<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}
