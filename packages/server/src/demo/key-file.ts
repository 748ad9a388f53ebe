import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../db/types.js';
import { unusedKeyOrganization } from '../modules/access/index.js';
import { findOrganization } from '../modules/organizations/index.js';

/**
 * The demo key, kept until someone uses it. The database holds only its hash, and a start's output can be lost (a
 * closed pipe, `| true`, a terminal closed before it was read), so the key is kept in plain text in the embedded
 * database's data directory, readable by its owner only, and printed again at every start until it has been used
 * (its last_used_at is set), revoked or has expired; then the file is removed. Till then the file holds a usable
 * read and write key, which the database does not (it keeps only the key's SHA-256): whoever can read the data
 * directory or its backups can use the demo organization, so the docs say to protect it accordingly.
 */
export const DEMO_KEY_FILE = 'demo-key';

export const demoKeyPath = (dataDir: string) => join(dataDir, DEMO_KEY_FILE);

/**
 * Written whole or not at all (a temporary file renamed), owner-only from its creation: the mode applies only to a
 * file the open creates, so a stale temporary file (a crash, a reused pid) is removed and the open must create it.
 */
export function keepDemoKey(dataDir: string, key: string): void {
  const path = demoKeyPath(dataDir);
  const partial = `${path}.${process.pid}.tmp`;
  rmSync(partial, { force: true });
  writeFileSync(partial, `${key}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(partial, path);
}

export function forgetDemoKey(dataDir: string): void {
  rmSync(demoKeyPath(dataDir), { force: true });
}

/** The kept key, if there is one. */
export function keptDemoKey(dataDir: string): string | undefined {
  try {
    return readFileSync(demoKeyPath(dataDir), 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The organization slug of `key` while nobody has used it and it may still be used; undefined otherwise. */
export async function unusedDemoKeySlug(sql: Queryable, key: string): Promise<string | undefined> {
  const organizationId = await unusedKeyOrganization(sql, key);
  if (organizationId === null) return undefined;
  return (await findOrganization(sql, organizationId))?.slug;
}
