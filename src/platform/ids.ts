import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 characters (rejection sampling keeps every character equally likely). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
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
