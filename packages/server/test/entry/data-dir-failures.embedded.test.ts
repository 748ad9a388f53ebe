import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { outputOf } from '@coinventory/test-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandResult, EXIT } from '../support/admin.js';
import { removeTempDirs, runToEnd, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const FIX = "set COINVENTORY_DATA_DIR to a directory this user can write, or fix that one's permissions";

function expectUnavailable(result: CommandResult, line: string | RegExp): void {
  const shown = `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
  expect(result.code, shown).toBe(EXIT.unavailable);
  if (typeof line === 'string') expect(result.stderr, shown).toBe(`coinventory-server: ${line}\n`);
  else expect(result.stderr, shown).toMatch(line);
  expect(result.stderr, shown).not.toContain('    at ');
}

/**
 * The embedded database's directory when it cannot be had, for an operator command and for `start`: in use by
 * another process, a path through a file, a directory this OS user may not write. One line each, exit 6, before
 * the database is opened.
 */
describe('an embedded data directory that cannot be used', () => {
  it('in use by another live process: start at once, an operator command after its wait', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'coinventory.lock'), String(process.pid));
    const line = `The embedded database in ${dataDir} is in use by process ${process.pid}; stop that process, or set COINVENTORY_DATA_DIR to another directory`;
    const [start, command] = await Promise.all([
      runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir }),
      runToEnd(['org', 'list'], { COINVENTORY_DATA_DIR: dataDir }),
    ]);
    expectUnavailable(start, line);
    expectUnavailable(command, line);
  }, 30_000);

  it('a path through a file (ENOTDIR)', async () => {
    const file = join(tempDir(), 'not-a-directory');
    writeFileSync(file, '');
    const dataDir = join(file, 'data');
    const line = `cannot write the embedded database's directory ${dataDir} (a part of the path is a file, not a directory: ${dataDir}); ${FIX}`;
    const [start, command] = await Promise.all([
      runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir }),
      runToEnd(['org', 'list'], { COINVENTORY_DATA_DIR: dataDir }),
    ]);
    expectUnavailable(start, line);
    expectUnavailable(command, line);
  });

  it('a directory this user may not write (EACCES), new or existing', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const readOnly = join(parent, 'read-only');
    mkdirSync(join(readOnly, 'existing'), { recursive: true });
    chmodSync(join(readOnly, 'existing'), 0o555);
    chmodSync(readOnly, 0o555);
    // Root may write anywhere: as root, the binary runs as nobody.
    const asUser =
      process.getuid?.() === 0
        ? {
            uid: Number(execFileSync('id', ['-u', 'nobody']).toString()),
            gid: Number(execFileSync('id', ['-g', 'nobody']).toString()),
          }
        : {};
    const run = (args: string[], dataDir: string) =>
      outputOf(
        spawn(process.execPath, [MAIN, ...args], {
          env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', COINVENTORY_DATA_DIR: dataDir },
          stdio: ['ignore', 'pipe', 'pipe'],
          ...asUser,
        }),
      );
    try {
      const fresh = join(readOnly, 'data');
      const existing = join(readOnly, 'existing');
      const [command, start, onExisting] = await Promise.all([
        run(['org', 'list'], fresh),
        run(['start'], fresh),
        run(['key', 'list', '--org', 'x'], existing),
      ]);
      const denied = `cannot write the embedded database's directory ${fresh} (permission denied: ${fresh}); ${FIX}`;
      expectUnavailable(command, denied);
      expectUnavailable(start, denied);
      expectUnavailable(
        onExisting,
        `cannot write the embedded database's directory ${existing} (permission denied: ${join(existing, 'coinventory.lock')}); ${FIX}`,
      );
    } finally {
      chmodSync(readOnly, 0o755);
      chmodSync(join(readOnly, 'existing'), 0o755);
      rmSync(readOnly, { recursive: true, force: true });
    }
  });
});
