import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { detectDocument, processPhoto, sniffImage, zipEntries } from './detect.ts';

test('sniffImage: only the accepted formats by their first bytes', async () => {
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const webp = await sharp(png).webp().toBuffer();
  const jpeg = await sharp(png).jpeg().toBuffer();
  assert.equal(sniffImage(png), 'png');
  assert.equal(sniffImage(webp), 'webp');
  assert.equal(sniffImage(jpeg), 'jpeg');
  assert.equal(sniffImage(Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00', 'latin1')), 'heif');
  assert.equal(sniffImage(Buffer.from('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00', 'latin1')), null);
  assert.equal(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null);
  assert.equal(sniffImage(Buffer.from('GIF89a')), null);
  assert.equal(sniffImage(Buffer.alloc(0)), null);
});

test('AVIF is accepted; a HEIC the decoder cannot read is refused', async () => {
  const avif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .heif({ compression: 'av1' })
    .toBuffer();
  const done = await processPhoto(avif);
  assert.equal(done.contentType, 'image/avif');
  assert.deepEqual([done.width, done.height], [64, 48]);
  const fakeHeic = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1'), Buffer.alloc(100)]);
  await assert.rejects(processPhoto(fakeHeic), (e: Error & { fields?: Record<string, string[]> }) => {
    assert.match(e.fields?.file?.[0] ?? '', /^must be a JPEG, PNG, WebP, AVIF or HEIC image/);
    return true;
  });
});

test('zipEntries: names from the central directory; not a ZIP is null', async () => {
  assert.equal(zipEntries(Buffer.from('PK but nothing else')), null);
  assert.equal(zipEntries(Buffer.from('%PDF-1.4')), null);
  await assert.rejects(detectDocument(Buffer.from('PK\x03\x04 broken zip', 'latin1')), /must be a PDF/);
  await assert.rejects(detectDocument(Buffer.from('just text')), /must be a PDF/);
});
