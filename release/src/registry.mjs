import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort, startLongRunning } from './processes.mjs';

const require = createRequire(import.meta.url);
const VERDACCIO_BIN = join(require.resolve('verdaccio/package.json'), '..', 'bin', 'verdaccio');

/**
 * A throwaway npm registry on loopback (verdaccio), its storage in `dir`. It serves the `@coinventory` scope only,
 * with no uplink: anything else a user installs comes from their usual registry, as it would from npmjs.com.
 * Anyone may publish, without an account (`npm publish` still wants a token, any token).
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 */
export async function startRegistry(dir, env) {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      `auth:`,
      `  htpasswd:`,
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      `    max_users: -1`,
      `uplinks: {}`,
      `packages:`,
      `  '@coinventory/*':`,
      `    access: $all`,
      `    publish: $anonymous`,
      `    unpublish: $anonymous`,
      `web:`,
      `  enable: false`,
      `log: { type: stdout, format: json, level: warn }`,
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}/`;
  const server = await startLongRunning(
    process.execPath,
    [VERDACCIO_BIN, '--config', config, '--listen', `127.0.0.1:${port}`],
    { cwd: dir, env },
  );
  // At level warn it prints nothing once up: it is ready when it answers.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${url}-/ping`)
      .then((response) => response.ok)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline || server.child.exitCode !== null) {
      await server.stop();
      throw new Error(`verdaccio did not answer on ${url}:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    /** The npmrc line that authenticates to it. */
    authLine: `//127.0.0.1:${port}/:_authToken=release-test`,
    stop: () => server.stop(),
  };
}
