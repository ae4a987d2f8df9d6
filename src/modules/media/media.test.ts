import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { testApp, makeOrg, type TestApp, type TestOrg, type Res } from '../../../test/harness.ts';
import { assertErrorShape, securitySuite } from '../../../test/security.ts';

let t: TestApp;
let dataDir: string;
// Above Fastify's 1 MiB JSON body limit, to show uploads are held to their own limits only.
const PHOTO_MAX = 1.5 * 1024 * 1024;
const DOC_MAX = 300 * 1024;

before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ark-media-'));
  t = await testApp({ dataDir, photoMaxBytes: PHOTO_MAX, documentMaxBytes: DOC_MAX });
});
after(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  type?: string;
}
/** A multipart/form-data body, as a browser sends one. */
function form(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----ark${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined ? `; filename="${p.filename}"` : '';
    const type = p.type ? `\r\nContent-Type: ${p.type}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
function post(org: TestOrg, url: string, parts: Part[], key?: string | null): Promise<Res> {
  const f = form(parts);
  return org.req('POST', url, { rawBody: f.payload, headers: { 'content-type': f.contentType }, key });
}

/** A JPEG 1200×800 as stored, marked by EXIF to be shown turned a quarter (orientation 6: 800×1200 upright). */
let jpeg: Buffer;
let png: Buffer;
before(async () => {
  jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#a07050' } })
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'Ark test', Make: 'TestCam' } } })
    .toBuffer();
  png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#00ff0080' } })
    .png()
    .toBuffer();
});

async function animal(org: TestOrg, isPublic = false): Promise<string> {
  const res = await org.req('POST', '/api/v1/animals', {
    body: { name: 'Biscuit', species: 'dog', status: 'Available', intakeDate: '2026-01-10', isPublic },
  });
  assert.equal(res.status, 201, res.raw);
  return res.body.data?.id ?? res.body.id;
}
async function photo(org: TestOrg, animalId: string, extra: Part[] = [], data = png): Promise<any> {
  const res = await post(org, `/api/animals/${animalId}/photos`, [{ name: 'file', data, filename: 'p.png', type: 'image/png' }, ...extra]);
  assert.equal(res.status, 201, res.raw);
  return res.body;
}
async function get(org: TestOrg, url: string, key?: string | null) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { host: org.host, ...(key === null ? {} : { authorization: `Bearer ${key ?? org.keys.admin}` }) },
  });
  return res;
}
/** The files the store holds for an organization. */
async function storedFiles(org: TestOrg): Promise<string[]> {
  const root = path.join(dataDir, 'blobs', org.id);
  try {
    return (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  } catch {
    return [];
  }
}

test('a photo upload: decoded, turned upright, sizes made as WebP without metadata, the original kept as sent', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const res = await post(org, `/api/animals/${a}/photos`, [
    { name: 'caption', data: 'First day' },
    { name: 'file', data: jpeg, filename: 'C:\\Users\\me\\biscuit.JPG', type: 'application/octet-stream' },
    { name: 'is_public', data: 'true' },
  ]);
  assert.equal(res.status, 201, res.raw);
  const p = res.body;
  assert.match(p.id, /^pho_[A-Za-z0-9]{20}$/);
  assert.equal(p.animal_id, a);
  assert.equal(p.content_type, 'image/jpeg');
  assert.equal(p.caption, 'First day');
  assert.equal(p.is_public, true);
  assert.equal(p.is_primary, true);
  assert.equal(p.filename, 'biscuit.JPG');
  assert.deepEqual([p.width, p.height], [800, 1200]);
  assert.equal(p.byte_size, jpeg.length);

  for (const [size, box] of [
    ['small', 320],
    ['medium', 1024],
  ] as const) {
    const file = await get(org, p.urls[size]);
    assert.equal(file.statusCode, 200);
    assert.equal(file.headers['content-type'], 'image/webp');
    const meta = await sharp(file.rawPayload).metadata();
    assert.equal(meta.format, 'webp');
    assert.equal(Math.max(meta.width ?? 0, meta.height ?? 0), box);
    assert.ok((meta.height ?? 0) > (meta.width ?? 0), 'turned upright by the EXIF orientation');
    assert.equal(meta.exif, undefined, 'no EXIF left');
    assert.equal(meta.orientation, undefined);
  }
  const original = await get(org, p.urls.original);
  assert.equal(original.statusCode, 200);
  assert.equal(original.headers['content-type'], 'image/jpeg');
  assert.ok(original.rawPayload.equals(jpeg));
  assert.match(String(original.headers['cache-control']), /^private/);

  // A small picture is never enlarged.
  const tiny = await photo(org, a);
  const small = await sharp((await get(org, tiny.urls.medium)).rawPayload).metadata();
  assert.deepEqual([small.width, small.height], [40, 30]);
  assert.equal(tiny.is_primary, false);

  const list = await org.req('GET', `/api/animals/${a}/photos`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.results.map((x: { id: string }) => x.id),
    [p.id, tiny.id],
  );
  assert.equal((await org.req('GET', `/api/animals/${a}/photos?is_public=false`)).body.results.length, 1);
});

test('uploads that lie about their type are refused 422 and nothing is stored', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const url = `/api/animals/${a}/photos`;
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  const cases: Part[] = [
    { name: 'file', data: 'this is only text', filename: 'dog.jpg', type: 'image/jpeg' },
    { name: 'file', data: svg, filename: 'dog.png', type: 'image/png' },
    { name: 'file', data: gif, filename: 'dog.jpg', type: 'image/jpeg' },
    // The right first bytes, then nothing an image decoder can read.
    { name: 'file', data: Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]), filename: 'x.png', type: 'image/png' },
    { name: 'file', data: jpeg.subarray(0, 400), filename: 'cut.jpg', type: 'image/jpeg' },
  ];
  for (const c of cases) {
    const res = await post(org, url, [c]);
    assertErrorShape(url, res, 422);
    assert.match(res.body.error, /^file must be a JPEG, PNG, WebP, AVIF or HEIC image/);
  }
  assert.equal((await org.req('GET', url)).body.results.length, 0);
  assert.deepEqual(await storedFiles(org), []);

  // A document that says it is a PDF but is not one; a PDF cut short.
  const durl = `/api/animals/${a}/documents`;
  const pdf = await samplePdf();
  for (const data of ['plain text, named .pdf', pdf.subarray(0, pdf.length - 200), zip({ 'notes.txt': 'hello' })]) {
    const res = await post(org, durl, [{ name: 'file', data, filename: 'record.pdf', type: 'application/pdf' }]);
    assertErrorShape(durl, res, 422);
  }
  assert.equal((await org.req('GET', durl)).body.results.length, 0);
  assert.deepEqual(await storedFiles(org), []);
});

test('the form: one file in the part named file, known fields only, multipart only', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const url = `/api/animals/${a}/photos`;
  assertErrorShape(url, await org.req('POST', url, { body: { file: 'x' } }), 415);
  assertErrorShape(url, await org.req('POST', url), 400);
  assertErrorShape(url, await post(org, url, [{ name: 'caption', data: 'no file' }]), 400);
  const unknown = await post(org, url, [
    { name: 'file', data: png, filename: 'a.png' },
    { name: 'colour', data: 'brown' },
  ]);
  assertErrorShape(url, unknown, 422);
  assert.match(unknown.body.error, /colour is not accepted/);
  const bad = await post(org, url, [
    { name: 'file', data: png, filename: 'a.png' },
    { name: 'is_public', data: 'yes' },
  ]);
  assertErrorShape(url, bad, 422);
  const two = await post(org, url, [
    { name: 'file', data: png, filename: 'a.png' },
    { name: 'file', data: png, filename: 'b.png' },
  ]);
  assertErrorShape(url, two, 422);
  assertErrorShape(url, await post(org, url, [{ name: 'photo', data: png, filename: 'a.png' }]), 422);
  assertErrorShape(url, await post(org, url, [{ name: 'file', data: Buffer.alloc(0), filename: 'a.png' }]), 422);
  assert.equal((await org.req('GET', url)).body.results.length, 0);
  // JSON elsewhere is unchanged: a JSON route still refuses a multipart body.
  const f = form([{ name: 'name', data: 'x' }]);
  const json = await org.req('POST', '/api/v1/animals', { rawBody: f.payload, headers: { 'content-type': f.contentType } });
  assert.equal(json.status, 415);
});

test('too large: 413 in the Family B shape, by the declared length or while reading; nothing stored', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const url = `/api/animals/${a}/photos`;
  const big = Buffer.concat([png, Buffer.alloc(PHOTO_MAX, 1)]);
  const res = await post(org, url, [{ name: 'file', data: big, filename: 'big.png' }]);
  assertErrorShape(url, res, 413);
  assert.match(res.body.error, /photo is larger than 1\.5 MiB/);
  // Just over the limit, within the room allowed for the form: refused while the file is read.
  const edge = await post(org, url, [
    { name: 'file', data: Buffer.concat([png, Buffer.alloc(PHOTO_MAX + 1 - png.length, 1)]), filename: 'e.png' },
  ]);
  assertErrorShape(url, edge, 413);
  const durl = `/api/animals/${a}/documents`;
  const doc = await post(org, durl, [{ name: 'file', data: Buffer.alloc(DOC_MAX + 10, 0x25), filename: 'big.pdf' }]);
  assertErrorShape(durl, doc, 413);
  assert.match(doc.body.error, /document is larger than/);
  assert.equal((await org.req('GET', url)).body.results.length, 0);
  assert.deepEqual(await storedFiles(org), []);
});

test('a photo over 1 MiB but within the limit is accepted', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const noise = Buffer.alloc(700 * 600 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const big = await sharp(noise, { raw: { width: 700, height: 600, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  assert.ok(big.length > 1024 * 1024 && big.length < PHOTO_MAX, String(big.length));
  const p = await photo(org, a, [], big);
  assert.equal(p.byte_size, big.length);
});

test('primary photo: the first upload, changed by PATCH, and the next one promoted when the primary is deleted', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const p1 = await photo(org, a);
  const p2 = await photo(org, a);
  const p3 = await photo(org, a);
  assert.deepEqual([p1.is_primary, p2.is_primary, p3.is_primary], [true, false, false]);
  const primaries = async () =>
    (await org.req('GET', `/api/animals/${a}/photos`)).body.results
      .filter((x: { is_primary: boolean }) => x.is_primary)
      .map((x: { id: string }) => x.id);

  const made = await org.req('PATCH', `/api/animals/${a}/photos/${p3.id}`, { body: { is_primary: true, caption: 'Best side' } });
  assert.equal(made.status, 200, made.raw);
  assert.equal(made.body.is_primary, true);
  assert.equal(made.body.caption, 'Best side');
  assert.deepEqual(await primaries(), [p3.id]);
  assertErrorShape('/api/animals/x', await org.req('PATCH', `/api/animals/${a}/photos/${p3.id}`, { body: { is_primary: false } }), 422);
  assertErrorShape('/api/animals/x', await org.req('PATCH', `/api/animals/${a}/photos/${p3.id}`, { body: { size: 'big' } }), 422);
  const cleared = await org.req('PATCH', `/api/animals/${a}/photos/${p3.id}`, { body: { caption: null } });
  assert.equal(cleared.body.caption, null);

  // Deleting an ordinary photo leaves the primary; deleting the primary promotes the earliest added of the rest.
  assert.equal((await org.req('DELETE', `/api/animals/${a}/photos/${p2.id}`)).status, 204);
  assert.deepEqual(await primaries(), [p3.id]);
  assert.equal((await org.req('DELETE', `/api/animals/${a}/photos/${p3.id}`)).status, 204);
  assert.deepEqual(await primaries(), [p1.id]);
  assert.equal((await get(org, p3.urls.small)).statusCode, 404);
  assert.equal((await org.req('DELETE', `/api/animals/${a}/photos/${p1.id}`)).status, 204);
  assert.deepEqual(await primaries(), []);
  assert.deepEqual(await storedFiles(org), []);
  const audit = await t.db.query<{ action: string }>(
    "SELECT action FROM audit_log WHERE organization_id = $1 AND entity_type = 'animal_photo' ORDER BY id",
    [org.id],
  );
  assert.equal(audit.filter((r) => r.action === 'delete').length, 3);
});

test('two first uploads at once: exactly one becomes primary', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const made = await Promise.all([0, 1, 2, 3].map(() => photo(org, a)));
  assert.equal(made.filter((p) => p.is_primary).length, 1);
});

test('downloads are authorized like the animal: a key with read on Animals, of the same organization', async () => {
  const org = await makeOrg(t);
  const other = await makeOrg(t);
  const a = await animal(org, true);
  const p = await photo(org, a, [{ name: 'is_public', data: 'true' }]);
  const docRes = await post(org, `/api/animals/${a}/documents`, [{ name: 'file', data: await samplePdf(), filename: 'r.pdf' }]);
  for (const url of [p.urls.small, p.urls.original, docRes.body.url]) {
    assert.equal((await get(org, url, null)).statusCode, 401, url);
    assert.equal((await get(org, url, other.keys.admin)).statusCode, 401, url);
    const there = await t.app.inject({ method: 'GET', url, headers: { host: other.host, authorization: `Bearer ${other.keys.admin}` } });
    assert.equal(there.statusCode, 404, url);
    assert.equal((await get(org, url, await org.keyWith({ people: 'admin' }))).statusCode, 403, url);
    assert.equal((await get(org, url, org.keys.readOnly)).statusCode, 200, url);
  }
  // Another animal's id with this photo: 404.
  const b = await animal(org);
  assert.equal((await get(org, `/api/animals/${b}/photos/${p.id}/small`)).statusCode, 404);
  // A deleted animal's photos are gone with it.
  assert.equal((await org.req('DELETE', `/api/v1/animals/${a}`)).status, 204);
  assert.equal((await get(org, p.urls.small)).statusCode, 404);
});

test('public photos: no key, only a public photo of a public animal, cached, never the original', async () => {
  const org = await makeOrg(t);
  const a = await animal(org, true);
  const shown = await photo(org, a, [{ name: 'is_public', data: 'true' }]);
  const hidden = await photo(org, a);
  const pub = (p: string, size = 'small') => `/api/animals/public/${a}/photos/${p}/${size}`;

  const ok = await get(org, pub(shown.id), null);
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.headers['content-type'], 'image/webp');
  assert.equal(ok.headers['cache-control'], 'public, max-age=3600');
  assert.equal(ok.headers['cross-origin-resource-policy'], 'cross-origin');
  const etag = String(ok.headers.etag);
  const again = await t.app.inject({ method: 'GET', url: pub(shown.id), headers: { host: org.host, 'if-none-match': etag } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.body, '');
  assert.equal((await get(org, pub(shown.id, 'medium'), null)).statusCode, 200);
  assert.equal((await get(org, pub(shown.id, 'original'), null)).statusCode, 422);
  assert.equal((await get(org, pub(hidden.id), null)).statusCode, 404);

  const list = await org.req('GET', `/api/animals/public/${a}/photos`, { key: null });
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.results.map((x: { id: string }) => x.id),
    [shown.id],
  );
  assert.equal(list.body.results[0].urls.small, pub(shown.id));
  assert.equal(list.body.results[0].filename, undefined);

  // The animal unpublished: nothing is served, not even the ETag's 304.
  assert.equal((await org.req('PATCH', `/api/v1/animals/${a}`, { body: { isPublic: false } })).status, 200);
  assert.equal((await get(org, pub(shown.id), null)).statusCode, 404);
  const stale = await t.app.inject({ method: 'GET', url: pub(shown.id), headers: { host: org.host, 'if-none-match': etag } });
  assert.equal(stale.statusCode, 404);
  assert.equal((await org.req('GET', `/api/animals/public/${a}/photos`, { key: null })).status, 404);
  // Public again, the photo made private: 404.
  await org.req('PATCH', `/api/v1/animals/${a}`, { body: { isPublic: true } });
  assert.equal((await get(org, pub(shown.id), null)).statusCode, 200);
  await org.req('PATCH', `/api/animals/${a}/photos/${shown.id}`, { body: { is_public: false } });
  assert.equal((await get(org, pub(shown.id), null)).statusCode, 404);
  // Another organization's address never serves it.
  const other = await makeOrg(t);
  await org.req('PATCH', `/api/animals/${a}/photos/${shown.id}`, { body: { is_public: true } });
  assert.equal((await get(other, pub(shown.id), null)).statusCode, 404);
});

/** A ZIP of stored (uncompressed) entries, enough to stand for an Office file. */
function zip(files: Record<string, string>): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const n = Buffer.from(name);
    const crc = crc32(data);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    local.push(h, n, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}

async function samplePdf(): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve) => {
    const doc = new PDFDocument();
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.text('Rabies certificate');
    doc.end();
  });
}

test('documents: PDF, Office and OpenDocument files and scans by their content; downloads as attachments; title and kind', async () => {
  const org = await makeOrg(t);
  const a = await animal(org);
  const url = `/api/animals/${a}/documents`;
  const pdf = await samplePdf();
  const made = await post(org, url, [
    { name: 'file', data: pdf, filename: 'Rabies certificate – Biscuit.pdf', type: 'text/plain' },
    { name: 'kind', data: 'medical' },
  ]);
  assert.equal(made.status, 201, made.raw);
  assert.match(made.body.id, /^adoc_/);
  assert.equal(made.body.content_type, 'application/pdf');
  assert.equal(made.body.kind, 'medical');
  assert.equal(made.body.title, 'Rabies certificate – Biscuit.pdf');
  const file = await get(org, made.body.url);
  assert.equal(file.statusCode, 200);
  assert.equal(file.headers['content-type'], 'application/pdf');
  assert.ok(file.rawPayload.equals(pdf));
  assert.equal(
    file.headers['content-disposition'],
    `attachment; filename="Rabies certificate _ Biscuit.pdf"; filename*=UTF-8''${encodeURIComponent('Rabies certificate – Biscuit.pdf')}`,
  );

  const types: [Buffer, string][] = [
    [
      zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    [
      zip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' }),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    [zip({ mimetype: 'application/vnd.oasis.opendocument.text', 'content.xml': '<office/>' }), 'application/vnd.oasis.opendocument.text'],
    [png, 'image/png'],
  ];
  for (const [data, type] of types) {
    const res = await post(org, url, [
      { name: 'file', data, filename: 'upload.bin' },
      { name: 'title', data: 'Intake form' },
    ]);
    assert.equal(res.status, 201, res.raw);
    assert.equal(res.body.content_type, type);
    assert.equal(res.body.title, 'Intake form');
    assert.equal(res.body.kind, 'other');
  }
  const list = await org.req('GET', url);
  assert.equal(list.body.results.length, 5);
  assert.equal(list.body.results[4].id, made.body.id, 'newest first');
  assert.deepEqual(
    (await org.req('GET', `${url}?kind=medical`)).body.results.map((d: { id: string }) => d.id),
    [made.body.id],
  );

  const changed = await org.req('PATCH', `${url}/${made.body.id}`, { body: { title: 'Rabies 2026', kind: 'health_certificate' } });
  assert.equal(changed.status, 200);
  assert.equal(changed.body.title, 'Rabies 2026');
  assertErrorShape(url, await org.req('PATCH', `${url}/${made.body.id}`, { body: { kind: 'recipe' } }), 422);
  assertErrorShape(url, await org.req('PATCH', `${url}/${made.body.id}`, { body: { title: '' } }), 422);
  assert.equal((await org.req('GET', `${url}/${made.body.id}`)).body.title, 'Rabies 2026');

  // Deleting needs admin; staff (write) is refused.
  assert.equal((await org.req('DELETE', `${url}/${made.body.id}`, { key: org.keys.staff })).status, 403);
  assert.equal((await org.req('DELETE', `${url}/${made.body.id}`)).status, 204);
  assert.equal((await get(org, made.body.url)).statusCode, 404);
});

async function docId(org: TestOrg, a: string): Promise<string> {
  const res = await post(org, `/api/animals/${a}/documents`, [{ name: 'file', data: await samplePdf(), filename: 'r.pdf' }]);
  assert.equal(res.status, 201, res.raw);
  return res.body.id as string;
}

securitySuite('media', () => t, [
  {
    method: 'GET',
    path: async (org) => `/api/animals/${await animal(org)}/photos`,
    area: 'animals',
    level: 'read',
    seed: async (org) => {
      const rows = await t.db.query<{ id: string }>(
        'SELECT id FROM animals WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1',
        [org.id],
      );
      return (await photo(org, rows[0]?.id ?? '')).id as string;
    },
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/photos`,
    raw: form([
      {
        name: 'file',
        data: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
        filename: 'a.png',
      },
    ]),
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/photos/${(await photo(org, a)).id}`;
    },
    area: 'animals',
    level: 'read',
  },
  {
    method: 'PATCH',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/photos/${(await photo(org, a)).id}`;
    },
    body: { caption: 'changed' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'DELETE',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/photos/${(await photo(org, a)).id}`;
    },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/photos/${(await photo(org, a)).id}/small`;
    },
    area: 'animals',
    level: 'read',
  },
  {
    method: 'GET',
    path: async (org) => `/api/animals/${await animal(org)}/documents`,
    area: 'animals',
    level: 'read',
    seed: async (org) => {
      const rows = await t.db.query<{ id: string }>(
        'SELECT id FROM animals WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1',
        [org.id],
      );
      return docId(org, rows[0]?.id ?? '');
    },
  },
  {
    method: 'POST',
    path: async (org) => `/api/animals/${await animal(org)}/documents`,
    raw: form([{ name: 'file', data: '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', filename: 'a.pdf' }]),
    area: 'animals',
    level: 'write',
  },
  {
    method: 'GET',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/documents/${await docId(org, a)}`;
    },
    area: 'animals',
    level: 'read',
  },
  {
    method: 'PATCH',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/documents/${await docId(org, a)}`;
    },
    body: { title: 'Renamed' },
    area: 'animals',
    level: 'write',
  },
  {
    method: 'DELETE',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/documents/${await docId(org, a)}`;
    },
    area: 'animals',
    level: 'admin',
  },
  {
    method: 'GET',
    path: async (org) => {
      const a = await animal(org);
      return `/api/animals/${a}/documents/${await docId(org, a)}/file`;
    },
    area: 'animals',
    level: 'read',
  },
]);
