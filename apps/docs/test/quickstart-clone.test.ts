// The quickstart's way to the SDK from a clone (step 6), run as written in a fresh copy of the repository where
// nothing is built: the SDK must come out built and install into a project by its path. A copy, not this checkout,
// because here the SDK is built already (and turbo's cache would restore it), so the step could never fail.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { copyFile, cp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks } from './support/markdown.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const QUICKSTART = fileURLToPath(new URL('../site/guide/quickstart.md', import.meta.url));
const WRITTEN_CLONE = '/path/to/coinventory';
const WRITTEN_PROJECT = '/path/to/your-project';

const work = mkdtempSync(join(tmpdir(), 'coinventory-quickstart-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A copy of the repository as a clone is after `pnpm install`: its files (tracked, and new ones not ignored) and
 * each package's `node_modules` (pnpm's links), the root's linked to this checkout's store; no `dist`, no cache.
 */
async function cloneWithoutBuilds(into: string): Promise<void> {
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO });
  const files = listed.output.split('\0').filter((file) => file !== '' && existsSync(join(REPO, file)));
  // Copied without blocking the test's worker, which must keep answering vitest while thousands of files go by.
  for (const file of files) {
    await mkdir(dirname(join(into, file)), { recursive: true });
    await copyFile(join(REPO, file), join(into, file));
  }
  symlinkSync(join(REPO, 'node_modules'), join(into, 'node_modules'));
  for (const manifest of files.filter((file) => file.endsWith('/package.json'))) {
    const modules = join(dirname(manifest), 'node_modules');
    if (existsSync(join(REPO, modules)))
      await cp(join(REPO, modules), join(into, modules), { recursive: true, verbatimSymlinks: true });
  }
}

/** Runs a command to its end without blocking the test's worker (a build takes a minute); killed if it overruns. */
async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], timeout: 280_000 });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, output };
}

describe('the quickstart, step 6 from a clone', () => {
  it('builds the SDK and installs it into a project by its path, as written', async () => {
    const block = codeBlocks(QUICKSTART, readFileSync(QUICKSTART, 'utf8')).find((candidate) =>
      candidate.code.includes(`${WRITTEN_CLONE}/packages/sdk`),
    );
    expect(block, 'the quickstart installs the SDK from a clone').toBeDefined();
    expect(block?.lang).toBe('bash');

    const clone = join(work, 'coinventory');
    const project = join(work, 'your-project');
    await cloneWithoutBuilds(clone);
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'my-shop', private: true, type: 'module' })}\n`,
    );
    expect(existsSync(join(clone, 'packages/sdk/dist')), 'the copy starts without a built SDK').toBe(false);

    const code = (block?.code ?? '').replaceAll(WRITTEN_CLONE, clone).replaceAll(WRITTEN_PROJECT, project);
    const step = await run('bash', ['-euo', 'pipefail', '-c', code], {
      cwd: clone,
      // Nothing from the network: npx's pnpm and the packages come from the machine's caches.
      env: {
        ...process.env,
        npm_config_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        TURBO_TELEMETRY_DISABLED: '1',
        // This checkout's cache, as a second clone on the same machine would share it: where the copy's sources are
        // these, the build restores the SDK's dist from it rather than spend a minute of CI building it again. A step
        // that does not build the SDK still leaves the copy without one: nothing restores what no task was asked for.
        TURBO_CACHE_DIR: join(REPO, '.turbo/cache'),
      },
    });
    expect(step.status, step.output).toBe(0);

    expect(existsSync(join(clone, 'packages/sdk/dist/index.js'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@coinventory/sdk']);
    // The project can use it, as step 6's sample does.
    const used = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { Coinventory } from '@coinventory/sdk'; console.log(typeof new Coinventory({ apiKey: 'cvk_live_x' }).items.list)",
      ],
      { cwd: project },
    );
    expect(used.output.trim()).toBe('function');
  }, 300_000);
});
