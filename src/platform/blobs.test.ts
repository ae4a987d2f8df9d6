import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { FolderBlobStore, S3BlobStore, checkBlobKey, openBlobStore, type BlobStore } from './blobs.ts';

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** put, get, exists, overwrite, delete (twice), and a missing key: the same for every store. */
async function roundTrip(store: BlobStore) {
  const key = 'org_1/photos/pho_1/small';
  assert.equal(await store.exists(key), false);
  assert.equal(await store.get(key), null);
  await store.put(key, Buffer.from('first'), 'text/plain');
  assert.equal(await store.exists(key), true);
  const got = await store.get(key);
  assert.ok(got);
  assert.equal(got.size, 5);
  assert.equal(await text(got.body), 'first');
  await store.put(key, Buffer.from('second version'), 'text/plain');
  const again = await store.get(key);
  assert.ok(again);
  assert.equal(await text(again.body), 'second version');
  await store.delete(key);
  await store.delete(key);
  assert.equal(await store.exists(key), false);
  assert.equal(await store.get(key), null);
}

test('blob keys: plain segments only, nothing that leaves the root', () => {
  assert.equal(checkBlobKey('org_1/photos/pho_1/original'), 'org_1/photos/pho_1/original');
  for (const bad of ['../x', 'a/../../x', '/abs', 'a//b', 'a/./b', '', 'a/b\\c', 'a/\u0000', '.hidden/..', 'a/b c'])
    assert.throws(() => checkBlobKey(bad), /not a safe blob key/, bad);
});

test('folder store: round trip, atomic writes leave no temporary files, unsafe keys refused', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ark-blobs-'));
  try {
    const store = new FolderBlobStore(dir);
    await roundTrip(store);
    await store.put('org_1/a/b', Buffer.from('x'), 'text/plain');
    assert.deepEqual(await readdir(path.join(dir, 'org_1/a')), ['b']);
    await assert.rejects(store.put('../escape', Buffer.from('x'), 'text/plain'), /not a safe blob key/);
    await assert.rejects(store.get('org_1/../../etc/passwd'), /not a safe blob key/);
    // The default store: `blobs/` under the data folder.
    const byConfig = await openBlobStore({ s3: undefined, dataDir: dir });
    assert.equal(byConfig.kind, 'folder');
    assert.equal((byConfig as FolderBlobStore).root, path.join(dir, 'blobs'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// A real S3-protocol server on loopback, started here (s3rver keeps its objects in a temporary folder).
let server: S3rver;
let endpoint = '';
let s3dir = '';
before(async () => {
  s3dir = await mkdtemp(path.join(tmpdir(), 'ark-s3-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'ark-test' }] });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
after(async () => {
  await server.close();
  await rm(s3dir, { recursive: true, force: true });
});

test('S3 store: round trip against an S3-protocol server on loopback', async () => {
  const store = await openBlobStore({
    dataDir: '/nonexistent',
    s3: { bucket: 'ark-test', endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  assert.equal(store.kind, 's3');
  try {
    await roundTrip(store);
    await assert.rejects(store.put('../escape', Buffer.from('x'), 'text/plain'), /not a safe blob key/);
  } finally {
    (store as S3BlobStore).close();
  }
});

test('S3 store: one of the two credentials alone is refused at start', async () => {
  await assert.rejects(
    S3BlobStore.open({ bucket: 'b', endpoint, region: 'us-east-1', accessKeyId: 'x', secretAccessKey: undefined }),
    /both ARK_S3_ACCESS_KEY_ID and ARK_S3_SECRET_ACCESS_KEY/,
  );
});
