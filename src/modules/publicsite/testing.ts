// Test helpers of the public site's browser tests: stand-in photos and their upload as public photos.
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { TestOrg } from '../../../test/harness.ts';

/** A stand-in photo: a soft two-colour picture with a face (no text, no fonts needed). */
export async function picture(a: string, b: string): Promise<Buffer> {
  const svg = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
    `<stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>`,
    '<rect width="800" height="600" fill="url(#g)"/><circle cx="400" cy="330" r="150" fill="#ffffff" opacity=".35"/>',
    '<circle cx="330" cy="280" r="22" fill="#3b2a20"/><circle cx="470" cy="280" r="22" fill="#3b2a20"/>',
    `<ellipse cx="400" cy="360" rx="34" ry="24" fill="#3b2a20"/><circle cx="270" cy="170" r="60" fill="${b}"/>`,
    `<circle cx="530" cy="170" r="60" fill="${b}"/></svg>`,
  ].join('');
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** Uploads `data` as a public photo of the animal (201 or the test fails). */
export async function uploadPublicPhoto(org: TestOrg, animalId: string, data: Buffer): Promise<void> {
  const boundary = `----ark${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="is_public"\r\n\r\ntrue\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await org.req('POST', `/api/animals/${animalId}/photos`, {
    rawBody: payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  assert.equal(r.status, 201, r.raw);
}
