/**
 * Syndication: the adoptable animals in the layouts Petfinder and Adopt-a-Pet import, photos by URL,
 * uploaded by FTP (optionally explicit FTPS) to the address configured per organization.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type SftpClient from 'ssh2-sftp-client';
import { lazyRequire } from '../../platform/lazy.ts';

const sftpClient = lazyRequire<typeof SftpClient>('ssh2-sftp-client');
import type { Config } from '../../config.ts';
import type { Db, Queryable } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { publicPhotoPath, publicPhotos } from '../media/public.ts';
import { shareableNotes } from '../care/public.ts';
import * as repo from './repository.ts';
import * as targets from './syndication.repository.ts';
import { ageDays, ageGroup, animalPath } from './service.ts';
import { sources } from './sources.ts';
import { sizeOf, type Size } from '../animals/public.ts';

/** The public website's address of an organization: ARK_PUBLIC_URL (which may hold `{organization}`), else http://{slug}.{base domain}:{port}. */
export function siteUrl(config: Config, slug: string): string {
  const pub = config.publicUrl;
  if (pub?.includes('{organization}')) return pub.replace('{organization}', slug).replace(/\/+$/, '');
  if (pub) {
    const u = new URL(pub);
    if (!u.hostname.startsWith(`${slug}.`)) u.hostname = `${slug}.${u.hostname}`;
    return u.toString().replace(/\/+$/, '');
  }
  return `http://${slug}.${config.baseDomain}:${config.port}`;
}

export interface ExportFile {
  name: string;
  content: string;
}
export interface Export {
  files: ExportFile[];
  animals: number;
  photos: number;
}

const PETFINDER_HEADER = [
  'ID',
  'Internal',
  'AnimalName',
  'PrimaryBreed',
  'SecondaryBreed',
  'Sex',
  'Size',
  'Age',
  'Desc',
  'Type',
  'Status',
  'Shots',
  'Altered',
  'NoDogs',
  'NoCats',
  'NoKids',
  'Housetrained',
  'Declawed',
  'specialNeeds',
  'Mix',
  'photo1',
  'photo2',
  'photo3',
  'photo4',
  'photo5',
  'photo6',
  'arrival_date',
  'birth_date',
  'primaryColor',
  'secondaryColor',
  'tertiaryColor',
  'coat_length',
  'adoption_fee',
  'display_adoption_fee',
  'adoption_fee_waived',
  'special_needs_notes',
  'no_other',
  'no_other_note',
  'tags',
]; // prettier-ignore
const ADOPTAPET_COLUMNS = [
  'Id',
  'Animal',
  'Breed',
  'Breed2',
  'Purebred',
  'Age',
  'Name',
  'Size',
  'Sex',
  'Description',
  'Status',
  'GoodWKids',
  'GoodWCats',
  'GoodWDogs',
  'SpayedNeutered',
  'ShotsCurrent',
  'Housetrained',
  'Declawed',
  'SpecialNeeds',
  'HairLength',
  'YouTubeVideoURL',
  'Birthdate',
  'Sizecurrent',
  'SizeUOM',
  'AdoptionFee',
  'PhotoURL1',
  'PhotoURL2',
  'PhotoURL3',
  'PhotoURL4',
]; // prettier-ignore
/** Both sites' size codes (Petfinder's Size, Adopt-a-Pet's Size) for Ark's size bands from the weight. */
const SIZE_CODE: Record<Size, string> = { small: 'S', medium: 'M', large: 'L', xlarge: 'XL' };
const titleCase = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());
const AGE_NAME: Record<string, string> = { baby: 'Baby', young: 'Young', adult: 'Adult', senior: 'Senior' };
const mixed = (breed: string | null) => !!breed && /\b(mix|mixed|cross)\b/i.test(breed);
const usDate = (iso: string | null) => (iso ? `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}` : '');

/** The export files of one layout for the organization's adoptable animals now (at most 5,000 animals). */
export async function buildExport(
  q: Queryable,
  orgId: string,
  format: 'petfinder' | 'adoptapet',
  origin: string,
  account: string,
): Promise<Export> {
  const ids = await repo.adoptableIds(q, orgId, 5000);
  let photoCount = 0;
  const rows: string[][] = [];
  for (const { id } of ids) {
    const a = await repo.adoptableAnimal(q, orgId, id);
    if (!a) continue; // became unavailable meanwhile
    const photos = (await publicPhotos(q, orgId, [id], format === 'petfinder' ? 6 : 4)).map(
      (p) => `${origin}${publicPhotoPath(id, p.id, 'medium')}`,
    );
    photoCount += photos.length;
    const notes = (await shareableNotes(q, orgId, id)).map((n) => n.body).join('\n\n');
    const desc = `${notes}${notes ? '\n\n' : ''}${origin}${animalPath(a.id, a.public_name)}`;
    const fee = sources.fee ? await sources.fee(q, orgId, id) : null;
    const age = AGE_NAME[ageGroup(ageDays(a.date_of_birth)) ?? 'adult'] ?? 'Adult';
    const sex = a.sex === 'female' ? 'F' : 'M';
    const breed = a.breed ?? '';
    const band = sizeOf(a.weight);
    // No weight on file: the size is left blank (not known), never guessed.
    const size = band ? SIZE_CODE[band] : '';
    const photo = (i: number) => photos[i] ?? '';
    if (format === 'petfinder') {
      const no = (v: string | null) => (v === 'no' ? '1' : '');
      rows.push([
        a.id,
        a.id,
        a.public_name,
        breed,
        '',
        sex,
        size,
        age,
        desc.replace(/\n/g, '&#10;'),
        titleCase(a.species),
        'A',
        '',
        a.altered ? '1' : '',
        no(a.good_with_dogs),
        no(a.good_with_cats),
        no(a.good_with_children),
        '',
        '',
        '',
        mixed(breed) ? '1' : '',
        photo(0),
        photo(1),
        photo(2),
        photo(3),
        photo(4),
        photo(5),
        a.intake_date,
        a.date_of_birth ?? '',
        '',
        '',
        '',
        '',
        fee && fee.amount_minor > 0 ? (fee.amount_minor / 100).toFixed(2) : '',
        fee && fee.amount_minor > 0 ? '1' : '',
        '',
        '',
        '',
        '',
        '',
      ]); // prettier-ignore
    } else {
      const yn = (v: string | null) => (v === 'yes' ? '1' : v === 'no' ? '0' : '');
      const dogOrCat = ['dog', 'cat'].includes(a.species.toLowerCase());
      rows.push([
        a.id,
        titleCase(a.species),
        breed,
        '',
        mixed(breed) ? '0' : '1',
        age,
        a.public_name,
        dogOrCat ? size : '',
        sex,
        desc.replace(/\n/g, '<br>'),
        'Available',
        yn(a.good_with_children),
        yn(a.good_with_cats),
        yn(a.good_with_dogs),
        a.altered ? '1' : '0',
        '',
        '',
        '',
        '0',
        '',
        '',
        usDate(a.date_of_birth),
        '',
        '',
        fee && fee.amount_minor > 0 ? String(Math.round(fee.amount_minor / 100)) : '',
        photo(0),
        photo(1),
        photo(2),
        photo(3),
      ]); // prettier-ignore
    }
  }
  if (format === 'petfinder') {
    const content = stringify([PETFINDER_HEADER, ...rows], { record_delimiter: '\n' });
    return { files: [{ name: `${account}.csv`, content }], animals: rows.length, photos: photoCount };
  }
  // Adopt-a-Pet reads a headerless pets.csv through the column map in import.cfg.
  const map = ['; Adopt-a-Pet import map, written by Ark', ...ADOPTAPET_COLUMNS.map((c, i) => `#${i + 1}:${c}=${c}`), ''].join('\n');
  return {
    files: [
      { name: 'pets.csv', content: stringify(rows, { record_delimiter: '\n', quoted: true, quoted_empty: true }) },
      { name: 'import.cfg', content: map },
    ],
    animals: rows.length,
    photos: photoCount,
  };
}

/** Sends the files to the target's server (FTP, FTPS when `secure`, or SFTP), into its folder, replacing what is there. */
export async function upload(t: targets.TargetRow, files: ExportFile[], timeoutMs = 30_000): Promise<void> {
  if (t.protocol === 'sftp') return uploadSftp(t, files, timeoutMs);
  // Loaded when a listing site is sent to, not at every start.
  const { Client } = await import('basic-ftp');
  const client = new Client(timeoutMs);
  try {
    await client.access({ host: t.host, port: t.port, user: t.username, password: t.password, secure: t.secure });
    await client.ensureDir(t.remote_dir);
    for (const f of files) await client.uploadFrom(Readable.from([Buffer.from(f.content, 'utf8')]), f.name);
  } finally {
    client.close();
  }
}

/**
 * SFTP: password authentication, the folder made when missing, each file written whole. The server's host key is not
 * pinned (listing sites publish none); the channel is encrypted either way.
 */
async function uploadSftp(t: targets.TargetRow, files: ExportFile[], timeoutMs: number): Promise<void> {
  const client = new (sftpClient())('ark-syndication');
  try {
    await client.connect({ host: t.host, port: t.port, username: t.username, password: t.password, readyTimeout: timeoutMs });
    const dir = t.remote_dir.replace(/\/+$/, '') || '/';
    if (dir !== '/' && !(await client.exists(dir))) await client.mkdir(dir, true);
    for (const f of files) await client.put(Buffer.from(f.content, 'utf8'), `${dir === '/' ? '' : dir}/${f.name}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface RunResult {
  status: 'ok' | 'failed';
  animals: number;
  photos: number;
  file: string;
  error: string | null;
}

/**
 * One run of a target: builds the export and uploads it, holding the target's row lock for the whole run,
 * so two processes (or a schedule and a click) never run the same target at once: the second is refused
 * (409). The result, counts and error are kept on the target and written to the activity log.
 */
export async function runTarget(db: Db, config: Config, orgId: string, slug: string, targetId: string, actor: string): Promise<RunResult> {
  return db.tx(async (q) => {
    const exists = await targets.getTarget(q, orgId, targetId);
    if (!exists) throw notFound('syndication target');
    const t = await targets.lockTarget(q, orgId, targetId);
    if (!t) throw conflict('This syndication target is being uploaded right now; try again when that run ends.');
    let result: RunResult;
    try {
      const exp = await buildExport(q, orgId, t.format, siteUrl(config, slug), t.username);
      await upload(t, exp.files);
      result = { status: 'ok', animals: exp.animals, photos: exp.photos, file: exp.files[0]?.name ?? '', error: null };
    } catch (e) {
      const message = (e instanceof Error ? e.message : String(e)).slice(0, 500);
      result = { status: 'failed', animals: 0, photos: 0, file: '', error: message };
    }
    await targets.recordRun(q, orgId, targetId, result);
    await audit(q, orgId, actor, 'syndicate', 'syndication_target', targetId, {
      format: t.format,
      status: result.status,
      animals: result.animals,
      photos: result.photos,
      ...(result.error ? { error: result.error } : {}),
    });
    return result;
  });
}
