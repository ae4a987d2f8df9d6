/** A full disk answers 507 in the family's shape, and leaves nothing half-written (no record, no file). */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { FolderBlobStore } from '../src/platform/blobs.ts';
import { makeOrg, testApp, type TestApp } from './harness.ts';

const full = existsSync('/dev/full') ? false : 'no /dev/full on this system';
let dir: string;
let t: TestApp;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ark-full-'));
  t = await testApp({ dataDir: dir, blobWriteThrough: '/dev/full' });
});
after(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function files(root: string): Promise<string[]> {
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  } catch {
    return [];
  }
}

test('the folder store: a write that finds the disk full is a 507 error and leaves no file', { skip: full }, async () => {
  const store = new FolderBlobStore(path.join(dir, 'direct'), '/dev/full');
  await assert.rejects(store.put('org_1/documents/a', Buffer.from('hello'), 'text/plain'), (e: { status?: number }) => e.status === 507);
  assert.deepEqual(await files(path.join(dir, 'direct')), []);
});

test('an upload to a full disk answers 507 in the family shape; no document is recorded, no file left', { skip: full }, async () => {
  const org = await makeOrg(t);
  const made = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Full', species: 'dog', status: 'Intake', intakeDate: '2026-01-02' },
  });
  assert.equal(made.status, 201, made.raw);
  const id = made.body.id;
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = await new Promise<Buffer>((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Vaccination record');
    doc.end();
  });
  const boundary = '----arkfull';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = `/api/animals/${id}/documents`;
  const res = await org.req('POST', url, { rawBody: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  assert.equal(res.status, 507, res.raw);
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.match(res.body.error, /no room/);
  assert.equal((await org.req('GET', url)).body.results.length, 0, 'no document recorded');
  assert.deepEqual(await files(path.join(dir, 'blobs')), [], 'no file, whole or partial');
});
