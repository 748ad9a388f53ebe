import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * An empty embedded cluster, as PGlite's initdb leaves it, kept as one gzipped tarball beside the built binary.
 *
 * initdb in WebAssembly is most of a first start (about 4 s of CPU, against about 1 s to unpack this), and its result
 * is the same on every machine for one PGlite version, which is pinned exactly. So the build runs it once
 * (tsup.config.ts) and a new data directory starts from the copy. It holds no schema: the migrations still run on it
 * and are reported as on any new database.
 */
export const INITDB_IMAGE_NAME = 'pglite-initdb.tar.gz';

/** Runs PGlite's initdb in memory and writes the cluster it made to `file`. */
export async function writeInitdbImage(file: string): Promise<void> {
  const db = await PGlite.create();
  try {
    const image = await db.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/**
 * The image in `dir` (the built binary's folder), or undefined where there is none: run from the sources (tests), a
 * new data directory is made by initdb as before.
 */
export function readInitdbImage(dir: string): Blob | undefined {
  const file = join(dir, INITDB_IMAGE_NAME);
  if (!existsSync(file)) return undefined;
  return new Blob([readFileSync(file)], { type: 'application/gzip' });
}
