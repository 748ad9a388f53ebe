import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * @typedef {{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }} Finished
 */

/** Every child still running, stopped by stopAll() however the run ends. */
const running = new Set();

/**
 * Runs a command to its end; rejects (with everything it printed) when it exits non-zero, unless `allowFailure`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, allowFailure?: boolean, timeoutMs?: number }} options
 * @returns {Promise<Finished>}
 */
export async function run(command, args, { cwd, env, allowFailure = false, timeoutMs = 180_000 }) {
  // A group of its own, so a timeout or stopAll() also ends what it started (npx runs tsc, npm runs scripts).
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => killGroup(child), timeoutMs);
  // 'close', not 'exit': only then has all of its output been read.
  const [code, signal] = /** @type {[number | null, NodeJS.Signals | null]} */ (await once(child, 'close'));
  clearTimeout(timer);
  running.delete(child);
  const finished = { code, signal, stdout, stderr };
  if (code !== 0 && !allowFailure) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${code ?? signal}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
    );
  }
  return finished;
}

/**
 * Starts a long-running command; resolves once `ready` matches what it printed (stdout and stderr together), or at
 * once without `ready`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, ready?: RegExp, timeoutMs?: number }} options
 */
export async function startLongRunning(command, args, { cwd, env, ready, timeoutMs = 60_000 }) {
  // Its own process group: `npx` runs the server as a grandchild, and stopping the group stops both.
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child);
  let output = '';
  const collect = (/** @type {Buffer} */ chunk) => {
    output += chunk;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const match = await new Promise((resolve, reject) => {
    if (!ready) return resolve(null);
    const timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = () => {
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited ${code} before it was ready:\n${output}`));
    });
  });
  return {
    child,
    /** What `ready` matched (null without it). */
    match: /** @type {RegExpExecArray | null} */ (match),
    output: () => output,
    /** SIGTERM to the group (as Ctrl-C or a service manager sends it); resolves with how the command ended. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = once(child, 'close');
        process.kill(-(child.pid ?? 0), 'SIGTERM');
        await closed;
      }
      running.delete(child);
      return { code: child.exitCode, signal: child.signalCode };
    },
  };
}

/** SIGKILL to a child's process group (each child leads one), or to the child alone if the group is gone. */
function killGroup(/** @type {import('node:child_process').ChildProcess} */ child) {
  try {
    process.kill(-(child.pid ?? 0), 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Kills whatever is still running (an interrupted or failed run). */
export function stopAll() {
  for (const child of running) killGroup(child);
  running.clear();
}

/** A free TCP port on loopback. */
export async function freePort() {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
