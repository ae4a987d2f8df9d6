import type PDFKit from 'pdfkit';
import type Sharp from 'sharp';
import { lazyRequire } from '../../platform/lazy.ts';

const pdfkit = lazyRequire<typeof PDFKit>('pdfkit');
const sharp = lazyRequire<typeof Sharp>('sharp');
import type { Queryable } from '../../platform/db/db.ts';
import type { SeedData } from '../../platform/context.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { openBlobStore } from '../../platform/blobs.ts';
import { newId } from '../../platform/ids.ts';
import { kx, sql, type DB, type Selectable } from '../../platform/db/kysely.ts';
import { loadConfig } from '../../config.ts';
import { DERIVED_SIZES, processPhoto } from './detect.ts';
import * as repo from './repository.ts';
import { PUBLIC_ANIMALS_SQL } from '../animals/public.ts';
import { documentKey, photoKey } from './service.ts';

const COLOURS = ['#c8a27a', '#7a8fc8', '#8cc87a', '#c87a9e', '#d9c36a', '#6ad9c9'];

/** A small made-up picture (no photo files in the repository): a coloured field with a few round shapes. */
async function samplePicture(i: number): Promise<Buffer> {
  const bg = COLOURS[i % COLOURS.length] ?? '#cccccc';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <rect width="800" height="600" fill="${bg}"/>
    <ellipse cx="400" cy="360" rx="150" ry="120" fill="#3b2f2f" opacity="0.8"/>
    <circle cx="290" cy="210" r="48" fill="#3b2f2f" opacity="0.8"/><circle cx="360" cy="160" r="48" fill="#3b2f2f" opacity="0.8"/>
    <circle cx="440" cy="160" r="48" fill="#3b2f2f" opacity="0.8"/><circle cx="510" cy="210" r="48" fill="#3b2f2f" opacity="0.8"/>
    <circle cx="${100 + ((i * 97) % 600)}" cy="${80 + ((i * 53) % 400)}" r="30" fill="#ffffff" opacity="0.5"/>
  </svg>`;
  return sharp()(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

function samplePdf(title: string, lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new (pdfkit())({ size: 'LETTER', margin: 56, info: { Title: title } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.font('Helvetica-Bold').fontSize(16).text(title);
    doc.font('Helvetica').fontSize(11);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}

/**
 * Photos made up for every animal the public website shows (so a new site never opens on placeholders) and a few
 * others (each animal's first photo public), and a rabies certificate or two.
 */
export async function seedMedia(q: Queryable, org: Organization, data: SeedData): Promise<void> {
  const blobs = await openBlobStore(loadConfig());
  // Every animal marked public (the website shows it when in care) and three that are not.
  const shown = new Set(
    (
      await sql<
        Pick<Selectable<DB['animals']>, 'id'>
      >`SELECT p.id FROM ${sql.raw(PUBLIC_ANIMALS_SQL)} p WHERE p.organization_id = ${org.id}`.execute(kx(q))
    ).rows.map((r) => r.id),
  );
  const animals = [...data.animals.filter((x) => shown.has(x.id)), ...data.animals.filter((x) => !shown.has(x.id)).slice(0, 3)];
  let n = 0;
  for (const [a, animal] of animals.entries()) {
    for (let k = 0; k < (a < 3 && a % 2 === 0 ? 2 : 1); k++) {
      const picture = await samplePicture(n++);
      const photo = await processPhoto(picture);
      const id = newId('pho');
      await blobs.put(photoKey(org.id, id, 'original'), picture, photo.contentType);
      for (const s of DERIVED_SIZES) await blobs.put(photoKey(org.id, id, s), photo.variants[s], 'image/webp');
      await repo.insertPhoto(q, org.id, {
        id,
        animal_id: animal.id,
        caption: k === 0 ? `${animal.name} settling in` : `${animal.name} in the play yard`,
        is_public: k === 0,
        is_primary: k === 0,
        content_type: photo.contentType,
        width: photo.width,
        height: photo.height,
        byte_size: picture.length,
        filename: `${animal.name.toLowerCase()}-${k + 1}.jpg`,
        created_by: 'seed',
      });
    }
  }
  for (const animal of animals.filter((x) => x.species === 'dog' || x.species === 'cat').slice(0, 2)) {
    const pdf = await samplePdf(`Rabies vaccination certificate: ${animal.name}`, [
      `Organization: ${org.name}`,
      `Animal: ${animal.name} (${animal.species})`,
      'Vaccine: rabies, 1 year. Sample document made by ark seed.',
    ]);
    const id = newId('adoc');
    await blobs.put(documentKey(org.id, id), pdf, 'application/pdf');
    await repo.insertDocument(q, org.id, {
      id,
      animal_id: animal.id,
      title: `Rabies certificate — ${animal.name}`,
      kind: 'medical',
      content_type: 'application/pdf',
      byte_size: pdf.length,
      filename: `rabies-${animal.name.toLowerCase()}.pdf`,
      created_by: 'seed',
    });
  }
}
