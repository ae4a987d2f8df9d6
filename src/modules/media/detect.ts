import type { Metadata } from 'sharp';
import type Sharp from 'sharp';
import { lazyRequire } from '../../platform/lazy.ts';
import { invalid } from '../../platform/errors.ts';

const sharp = lazyRequire<typeof Sharp>('sharp');

/** Derived photo sizes: WebP fitting within a square of this many pixels, never enlarged. */
export const PHOTO_SIZES = { small: 320, medium: 1024 } as const;
export type DerivedSize = keyof typeof PHOTO_SIZES;
export const DERIVED_SIZES = Object.keys(PHOTO_SIZES) as DerivedSize[];
/** Larger images are refused before decoding (a small file can claim a huge picture). */
export const MAX_PIXELS = 60_000_000;

type ImageFormat = 'jpeg' | 'png' | 'webp' | 'heif';

/** What the first bytes say: only formats Ark accepts; anything else (SVG, GIF, TIFF, text) is null. */
export function sniffImage(buf: Buffer): ImageFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (buf.length >= 12 && buf.toString('latin1', 4, 8) === 'ftyp') {
    const brand = buf.toString('latin1', 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis'].includes(brand)) return 'heif';
  }
  return null;
}

const opts = { limitInputPixels: MAX_PIXELS } as const;
const PHOTO_WORDS = 'must be a JPEG, PNG, WebP, AVIF or HEIC image';

export interface ProcessedPhoto {
  contentType: string;
  /** As shown: after the EXIF orientation is applied. */
  width: number;
  height: number;
  variants: Record<DerivedSize, Buffer>;
}

/**
 * Checks a photo by decoding it (never by its name or the Content-Type the client sent) and makes
 * the derived sizes: EXIF orientation applied, every metadata block (EXIF, GPS, XMP, ICC) dropped.
 */
export async function processPhoto(buf: Buffer, field = 'file'): Promise<ProcessedPhoto> {
  const sniffed = sniffImage(buf);
  if (!sniffed) throw invalid({ [field]: [PHOTO_WORDS] });
  let meta: Metadata;
  try {
    meta = await sharp()(buf, opts).metadata();
  } catch {
    throw invalid({ [field]: [`${PHOTO_WORDS}; this one cannot be read`] });
  }
  if (meta.format !== sniffed) throw invalid({ [field]: [`${PHOTO_WORDS}; this one cannot be read`] });
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS)
    throw invalid({ [field]: [`must be at most ${MAX_PIXELS / 1_000_000} megapixels`] });
  const contentType = sniffed === 'heif' ? (meta.compression === 'av1' ? 'image/avif' : 'image/heic') : `image/${sniffed}`;
  const variants = {} as Record<DerivedSize, Buffer>;
  try {
    for (const size of DERIVED_SIZES) {
      const px = PHOTO_SIZES[size];
      variants[size] = await sharp()(buf, opts)
        .rotate()
        .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
    }
  } catch {
    const why =
      contentType === 'image/heic' ? '; HEIC photos compressed with HEVC cannot be decoded here: send JPEG' : '; this one cannot be read';
    throw invalid({ [field]: [`${PHOTO_WORDS}${why}`] });
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const width = meta.width ?? 1;
  const height = meta.height ?? 1;
  return { contentType, width: swap ? height : width, height: swap ? width : height, variants };
}

/** Document types Ark accepts, with the extension a download is named with. */
export const DOCUMENT_TYPES = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;
const DOC_WORDS =
  'must be a PDF, a Word, Excel or PowerPoint file (.docx, .xlsx, .pptx), an OpenDocument text or spreadsheet, ' +
  'or a JPEG, PNG or WebP image';

/** Names of the entries in a ZIP file's central directory; null when it is no readable ZIP. */
export function zipEntries(buf: Buffer): string[] | null {
  if (buf.length < 22 || buf.readUInt32LE(0) !== 0x04034b50) return null;
  // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return null;
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    if (at + 46 + nameLen > buf.length) return null;
    names.push(buf.toString('utf8', at + 46, at + 46 + nameLen));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

/** An OpenDocument file's type: its first entry is `mimetype`, stored uncompressed. */
function openDocumentType(buf: Buffer): string | null {
  if (buf.length < 30 || buf.readUInt16LE(8) !== 0) return null;
  const nameLen = buf.readUInt16LE(26);
  const extraLen = buf.readUInt16LE(28);
  const size = buf.readUInt32LE(18);
  if (buf.toString('latin1', 30, 30 + nameLen) !== 'mimetype' || size > 100) return null;
  const start = 30 + nameLen + extraLen;
  return buf.toString('latin1', start, start + size);
}

/**
 * What a document is, from its content alone: PDF by its header and end marker, Office and OpenDocument
 * files by the parts their ZIP container must hold, images by decoding them.
 */
export async function detectDocument(buf: Buffer, field = 'file'): Promise<DocumentType> {
  if (buf.toString('latin1', 0, 5) === '%PDF-') {
    if (!buf.toString('latin1', Math.max(0, buf.length - 4096)).includes('%%EOF'))
      throw invalid({ [field]: ['is a PDF that ends early (no %%EOF marker): it may be cut short'] });
    return 'application/pdf';
  }
  const names = zipEntries(buf);
  if (names) {
    const has = (n: string) => names.includes(n);
    const ooxml = has('[Content_Types].xml');
    if (ooxml && has('word/document.xml')) return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    if (ooxml && has('xl/workbook.xml')) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    if (ooxml && has('ppt/presentation.xml')) return 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
    const odf = has('content.xml') ? openDocumentType(buf) : null;
    if (odf === 'application/vnd.oasis.opendocument.text' || odf === 'application/vnd.oasis.opendocument.spreadsheet') return odf;
    throw invalid({ [field]: [DOC_WORDS] });
  }
  const image = sniffImage(buf);
  if (image === 'jpeg' || image === 'png' || image === 'webp') {
    try {
      const meta = await sharp()(buf, opts).metadata();
      if (meta.format !== image) throw new Error('format');
      await sharp()(buf, opts).resize(64).toBuffer();
    } catch {
      throw invalid({ [field]: [`${DOC_WORDS}; this image cannot be read`] });
    }
    return `image/${image}`;
  }
  throw invalid({ [field]: [DOC_WORDS] });
}
