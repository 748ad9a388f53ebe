import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../db/types.js';
import { hashKey } from '../modules/access/index.js';

/**
 * The demo key, kept until someone uses it. The database holds only its hash, and a start's output can be lost (a
 * closed pipe, `| true`, a terminal closed before it was read), so the key is kept in plain text in the embedded
 * database's data directory, readable by its owner only, and printed again at every start until it has been used
 * (its last_used_at is set), revoked or has expired; then the file is removed. The data directory holds the whole
 * database already, so the file gives nobody who can read it anything they could not have.
 */
export const DEMO_KEY_FILE = 'demo-key';

export const demoKeyPath = (dataDir: string) => join(dataDir, DEMO_KEY_FILE);

/** Written whole or not at all (a temporary file renamed), owner-only from its creation. */
export function keepDemoKey(dataDir: string, key: string): void {
  const path = demoKeyPath(dataDir);
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${key}\n`, { mode: 0o600, flag: 'w' });
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

/** The workspace slug of `key` while nobody has used it and it may still be used; undefined otherwise. */
export async function unusedDemoKeySlug(sql: Queryable, key: string): Promise<string | undefined> {
  const [row] = await sql<{ slug: string }[]>`
    SELECT o.slug FROM api_keys k JOIN organizations o ON o.id = k.organization_id
    WHERE k.key_hash = ${hashKey(key)} AND k.last_used_at IS NULL AND k.revoked_at IS NULL
      AND (k.expires_at IS NULL OR k.expires_at > now())
  `;
  return row?.slug;
}
