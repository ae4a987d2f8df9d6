import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// One call to the system's random source fills a pool that serves a few hundred ids (as crypto.randomUUID does):
// asking it for 40 bytes per id cost ~3% of a POST's CPU. Every byte is still used once, in order.
const POOL = Buffer.alloc(8192);
let next = POOL.length;
function randomByte(): number {
  if (next === POOL.length) {
    randomFillSync(POOL);
    next = 0;
  }
  return POOL[next++] as number;
}

/** Uniform base62 characters (rejection sampling keeps every character equally likely). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Opaque id with a type prefix, e.g. `ani_3h5...`: a stray id in a log says what it is. */
export function newId(prefix: string): string {
  return `${prefix}_${base62(20)}`;
}

const KEY_PREFIX = 'ark_live_';
export const KEY_PATTERN = /^ark_live_[0-9A-Za-z]{40}$/;
export function newApiKey(): string {
  return KEY_PREFIX + base62(40);
}
