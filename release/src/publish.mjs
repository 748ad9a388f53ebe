import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './processes.mjs';

/** @param {string} file */
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
/** @param {boolean} condition @param {string} message */
function check(condition, message) {
  if (!condition) throw new Error(message);
}

/**
 * The pnpm that runs this script (`pnpm test`), else the one package.json pins, through npx.
 * @param {string} repo
 */
export function pnpm(repo) {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(execpath)) return { command: process.execPath, args: [execpath] };
  const pinned = readJson(join(repo, 'package.json')).packageManager;
  return { command: 'npx', args: ['-y', pinned] };
}

/**
 * Packs each package as `pnpm publish` would (`workspace:*` dependencies become the versions they point at) and
 * publishes it to the throwaway registry, in the order given (dependencies first); checks what the registry then
 * serves. Returns the version they share.
 * @param {{ repo: string, names: readonly string[], work: string, registry: { authLine: string }, userEnv: NodeJS.ProcessEnv }} options
 */
export async function packAndPublish({ repo, names, work, registry, userEnv }) {
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const { command, args } = pnpm(repo);
  const versions = new Set();
  for (const name of names) {
    const dir = join(repo, 'packages', name);
    const manifest = readJson(join(dir, 'package.json'));
    versions.add(manifest.version);
    check(existsSync(join(dir, 'dist')), `packages/${name}/dist is missing: build first (pnpm build)`);
    await run(command, [...args, 'pack', '--pack-destination', tarballs], { cwd: dir, env: process.env });
    const tarball = readdirSync(tarballs).find((file) => file.startsWith(`coinventory-${name}-`));
    check(tarball !== undefined, `no tarball for @coinventory/${name}`);
    await run('npm', ['publish', join(tarballs, String(tarball)), `--${registry.authLine}`], {
      cwd: work,
      env: userEnv,
    });
    rmSync(join(tarballs, String(tarball)));
    // What the registry now serves: public, licensed, nothing that points into the monorepo.
    const published = JSON.parse(
      (await run('npm', ['view', `@coinventory/${name}`, '--json'], { cwd: work, env: userEnv })).stdout,
    );
    check(published.license === 'MIT', `@coinventory/${name}: license ${published.license}`);
    check(
      !JSON.stringify(published).includes('workspace:'),
      `@coinventory/${name} was published with a workspace: dependency`,
    );
  }
  check(versions.size === 1, `the published packages share one version (fixed in .changeset/config.json)`);
  return String([...versions][0]);
}
