// Object content on disk: `<dataDir>/storage/<bucket folder>/<version id>`. Files are named by
// the version id Storage generates for each upload, never by the object's name, so no name can
// reach outside the folder; a bucket whose id is not plain lowercase gets a hex folder name.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { errors } from './errors.ts';

const VERSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface WrittenFile {
  size: number;
  /** Hex MD5 of the content: S3's ETag, which Storage reports as `"<md5>"`. */
  md5: string;
}

export class ObjectFiles {
  readonly root: string;
  constructor(root: string) {
    this.root = root;
  }

  bucketFolder(bucketId: string): string {
    // Lowercase only: on case-insensitive file systems `A` and `a` would share a folder.
    const folder = /^[a-z0-9_-]+$/.test(bucketId) ? bucketId : `~${Buffer.from(bucketId, 'utf8').toString('hex')}`;
    return path.join(this.root, folder);
  }

  /** The file of one stored version, or undefined when the version is not one of ours. */
  pathOf(bucketId: string, version: string | null | undefined): string | undefined {
    if (!version || !VERSION_ID.test(version)) return undefined;
    return path.join(this.bucketFolder(bucketId), version);
  }

  /**
   * Streams `source` into a new version's file, refusing more than `limit` bytes. A refused body
   * is still read (and dropped) to its end, so the client gets the refusal rather than a reset.
   */
  async writeStream(bucketId: string, version: string, source: Readable, limit: number): Promise<WrittenFile> {
    const target = this.pathOf(bucketId, version)!;
    const partial = `${target}.partial`;
    await mkdir(path.dirname(target), { recursive: true });
    const out = createWriteStream(partial, { flags: 'wx' });
    const hash = createHash('md5');
    let size = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const stop = (error: unknown) => {
          source.off('data', onData);
          source.off('end', resolve);
          source.resume();
          reject(error);
        };
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) return stop(errors.entityTooLarge());
          hash.update(chunk);
          if (!out.write(chunk)) {
            source.pause();
            out.once('drain', () => source.resume());
          }
        };
        source.on('data', onData);
        source.once('end', resolve);
        source.once('error', stop);
        out.once('error', stop);
        source.resume();
      });
      out.end();
      await finished(out);
      await rename(partial, target);
    } catch (error) {
      out.destroy();
      await rm(partial, { force: true });
      throw error;
    }
    return { size, md5: hash.digest('hex') };
  }

  async writeBuffer(bucketId: string, version: string, data: Uint8Array): Promise<WrittenFile> {
    const target = this.pathOf(bucketId, version)!;
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(`${target}.partial`, data, { flag: 'wx' });
    await rename(`${target}.partial`, target);
    return { size: data.byteLength, md5: createHash('md5').update(data).digest('hex') };
  }

  /** Finds a stored version's file and size; NoSuchKey when it is gone. */
  async locate(bucketId: string, version: string | null | undefined): Promise<{ file: string; size: number }> {
    const file = this.pathOf(bucketId, version);
    if (!file) throw errors.noSuchKey();
    try {
      return { file, size: (await stat(file)).size };
    } catch {
      throw errors.noSuchKey();
    }
  }

  /** Reads bytes `start`..`end` (inclusive) of a located file, or all of it. */
  read(file: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(file, range);
  }

  async remove(bucketId: string, version: string | null | undefined): Promise<void> {
    const file = this.pathOf(bucketId, version);
    if (file) await rm(file, { force: true });
  }

  async removeBucket(bucketId: string): Promise<void> {
    await rm(this.bucketFolder(bucketId), { recursive: true, force: true });
  }
}
