import { invalid } from '../../../platform/errors.ts';
import type { Bundle } from '../model.ts';
import { readAsm3Csv } from './asm3.ts';
import { readShelterluv } from './shelterluv.ts';
import { readPetPoint } from './petpoint.ts';
import { readGeneric } from './generic.ts';
import { BUNDLE_KINDS, photosFromAddresses, type FileKind } from '../model.ts';

export const SOURCES = ['asm3', 'shelterluv', 'petpoint', 'generic'] as const;
export type SourceName = (typeof SOURCES)[number];

/** The files of a move as sent (name → text; XLSX as base64), and how to read them. */
export interface SourceFiles {
  source: SourceName;
  files: Record<string, string>;
  date_order?: 'dmy' | 'mdy';
  /** Generic spreadsheets: which file holds which record kind, and its column → field mapping. */
  generic?: { kind: FileKind; file: string; columns: Record<string, string> }[];
}

/** Every source read into the one shape the move writes. */
export async function readSource(s: SourceFiles): Promise<Bundle> {
  const names = Object.keys(s.files);
  if (!names.length) throw invalid({ files: ['must hold at least one file'] });
  switch (s.source) {
    case 'asm3': {
      const out = names.map((n) => readAsm3Csv(s.files[n] ?? '', s.date_order ?? 'mdy'));
      return photosFromAddresses(merge('asm3', out));
    }
    case 'shelterluv':
      return photosFromAddresses(readShelterluv(s.files));
    case 'petpoint':
      return photosFromAddresses(await readPetPoint(s.files, s.date_order ?? 'mdy'));
    case 'generic':
      return photosFromAddresses(await readGeneric(s.files, s.generic ?? [], s.date_order ?? 'mdy'));
  }
}

export function merge(source: string, parts: Bundle[]): Bundle {
  const [first, ...rest] = parts;
  if (!first) throw invalid({ files: ['must hold at least one file'] });
  for (const p of rest) for (const k of [...BUNDLE_KINDS, 'refused'] as const) (first[k] as unknown[]).push(...(p[k] as unknown[]));
  first.source = source;
  return first;
}
