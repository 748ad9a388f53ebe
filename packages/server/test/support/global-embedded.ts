import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the image of a freshly migrated embedded database (see createTestDatabase). */
    embeddedImage: string;
  }
}

/**
 * Migrates one embedded database for the `embedded` project and keeps its image in a file: every test database then
 * starts from it, instead of each running initdb and the migrations again (about 2.5 s of CPU each, over some sixty
 * files). The migrations themselves stay tested: test/db runs them on empty databases.
 */
export default async function setup(project: TestProject) {
  const database = await connectDatabase({ dataDir: 'memory://', poolSize: 1, statementTimeoutMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'coinventory-test-image-'));
  try {
    await migrate(database.sql);
    // PostgreSQL's default 128 MB of shared buffers is zeroed at every start, a third of the CPU a test database
    // takes to open from the image; a test database needs far fewer. Kept in the image's postgresql.auto.conf.
    await database.sql.unsafe(`ALTER SYSTEM SET shared_buffers = '16MB'`);
    const image = await database.image?.();
    if (!image) throw new Error('the embedded database gave no image');
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await image.arrayBuffer()));
    project.provide('embeddedImage', file);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await database.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
