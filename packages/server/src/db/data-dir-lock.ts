import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainDataDirFailure } from './unavailable.js';

/**
 * The embedded database's files may be opened by one process at a time. Whoever opens them (the server, or an
 * operator command when no server runs) first takes this lock: a file holding its pid, created exclusively.
 */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The embedded database in ${dataDir} is in use by process ${pid}.`);
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface DataDirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, 'coinventory.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          // Only remove the lock if it is still ours.
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw explainDataDirFailure(error, dataDir) ?? error;
      const holder = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new DataDirBusyError(dataDir, holder);
      // Left behind by a process that died: take it over.
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}

/** Locks the embedded database's data directory (created if need be); nothing to lock on DATABASE_URL. */
export function lockEmbeddedDataDir(databaseUrl: string | undefined, dataDir: string): DataDirLock | undefined {
  if (databaseUrl) return undefined;
  makeDataDir(dataDir);
  return lockDataDir(dataDir);
}

/** Creates the data directory if need be; one it cannot be is a DatabaseUnavailableError naming why. */
export function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw explainDataDirFailure(error, dataDir) ?? error;
  }
}
