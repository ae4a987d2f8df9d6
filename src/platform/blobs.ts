import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config.ts';
import { insufficientStorage, isStorageFull } from './errors.ts';

/** A stored file read back: its bytes as a stream, and how many there are. */
export interface Blob {
  body: Readable;
  size: number;
}

/**
 * Where uploaded files live. Keys are relative paths of safe segments (`org_x/photos/pho_y/small`);
 * the database keeps what a file is, the store keeps only its bytes.
 */
export interface BlobStore {
  readonly kind: 'folder' | 's3';
  /** Writes the whole file; a reader sees the old file or the new one, never a part. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none. */
  get(key: string): Promise<Blob | null>;
  /** Removes the file; removing a missing one is no error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/** Refuses a key that could leave the store's root: only plain segments, none of them `.` or `..`. */
export function checkBlobKey(key: string): string {
  const segments = key.split('/');
  if (segments.length > 16 || !segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..'))
    throw new Error(`not a safe blob key: ${JSON.stringify(key.slice(0, 200))}`);
  return key;
}

/** Files in a folder (by default `blobs/` under ARK_DATA_DIR). */
export class FolderBlobStore implements BlobStore {
  readonly kind = 'folder';
  readonly root: string;
  /**
   * @param writeThrough tests only: every write goes to this existing file instead of a new one beside its target,
   * e.g. `/dev/full` to see a full disk (Config.blobWriteThrough).
   */
  constructor(
    root: string,
    private readonly writeThrough?: string,
  ) {
    this.root = path.resolve(root);
  }
  private pathOf(key: string): string {
    const full = path.resolve(this.root, checkBlobKey(key));
    if (!full.startsWith(this.root + path.sep)) throw new Error('blob key leaves the store');
    return full;
  }
  /** A full disk or quota (ENOSPC, EDQUOT) answers 507; the partial file is removed, the target is untouched. */
  async put(key: string, data: Buffer, _contentType?: string): Promise<void> {
    try {
      await this.write(key, data);
    } catch (err) {
      if (isStorageFull(err)) throw insufficientStorage();
      throw err;
    }
  }
  private async write(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside the target, flushed, then renamed over it: the rename is atomic on one file system.
    const temp = path.join(path.dirname(file), `.tmp-${randomBytes(8).toString('hex')}`);
    const fh = this.writeThrough ? await open(this.writeThrough, 'r+') : await open(temp, 'wx', 0o640);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } catch (err) {
      await fh.close();
      await rm(temp, { force: true });
      throw err;
    }
    await fh.close();
    try {
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
  async get(key: string): Promise<Blob | null> {
    const file = this.pathOf(key);
    try {
      const s = await stat(file);
      if (!s.isFile()) return null;
      return { body: createReadStream(file), size: s.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }
}

/** An S3-compatible bucket, addressed path-style (MinIO, Ceph and most others need it). */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private constructor(
    private readonly s3: typeof S3,
    private readonly client: S3.S3Client,
    private readonly bucket: string,
  ) {}
  static async open(cfg: S3Config): Promise<S3BlobStore> {
    if (!cfg.accessKeyId !== !cfg.secretAccessKey)
      throw new Error('Set both ARK_S3_ACCESS_KEY_ID and ARK_S3_SECRET_ACCESS_KEY, or neither.');
    // Loaded only when configured: the SDK is large.
    const s3 = await import('@aws-sdk/client-s3');
    const client = new s3.S3Client({
      region: cfg.region,
      endpoint: cfg.endpoint,
      forcePathStyle: true,
      credentials:
        cfg.accessKeyId && cfg.secretAccessKey ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } : undefined,
      // Checksums only where the protocol requires them: many S3-compatible servers reject the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return new S3BlobStore(s3, client, cfg.bucket);
  }
  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new this.s3.PutObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key), Body: data, ContentType: contentType }),
    );
  }
  async get(key: string): Promise<Blob | null> {
    try {
      const res = await this.client.send(new this.s3.GetObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
      if (!res.Body) return null;
      return { body: res.Body as Readable, size: res.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }
  async delete(key: string): Promise<void> {
    await this.client.send(new this.s3.DeleteObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
  }
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new this.s3.HeadObjectCommand({ Bucket: this.bucket, Key: checkBlobKey(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }
  close(): void {
    this.client.destroy();
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The store the settings name: S3 when ARK_S3_BUCKET is set, else `blobs/` under ARK_DATA_DIR. */
export async function openBlobStore(config: Pick<Config, 's3' | 'dataDir'> & { blobWriteThrough?: string }): Promise<BlobStore> {
  return config.s3 ? S3BlobStore.open(config.s3) : new FolderBlobStore(path.join(config.dataDir, 'blobs'), config.blobWriteThrough);
}
