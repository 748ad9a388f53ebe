// `docker compose up --wait` for podman-compose (see ./docker): waits until every container of a compose project
// is healthy (those with a health check, which Podman runs only when asked where no systemd schedules it), running
// (the others), or exited 0 (one-shot services such as `migrate`). Gives up after COMPOSE_WAIT_SECONDS (180).
import { execFileSync, spawnSync } from 'node:child_process';

const deadline = Date.now() + Number(process.env.COMPOSE_WAIT_SECONDS ?? 180) * 1000;
const podman = (/** @type {string[]} */ ...args) => execFileSync('podman', args, { encoding: 'utf8' });

for (;;) {
  const containers = JSON.parse(
    podman('ps', '--all', '--filter', 'label=io.podman.compose.project', '--format', 'json'),
  );
  /** @type {string[]} */
  const waiting = [];
  for (const container of containers) {
    const name = container.Names[0];
    const [inspected] = JSON.parse(podman('inspect', name));
    const state = inspected.State;
    if (state.Status === 'exited' && state.ExitCode === 0) continue;
    if (state.Status !== 'running') {
      waiting.push(`${name} ${state.Status} (exit ${state.ExitCode})`);
      continue;
    }
    if (
      (inspected.Config.Healthcheck ?? inspected.Healthcheck) &&
      spawnSync('podman', ['healthcheck', 'run', name]).status !== 0
    ) {
      waiting.push(`${name} not healthy yet`);
    }
  }
  if (containers.length > 0 && waiting.length === 0) break;
  if (Date.now() > deadline) {
    console.error(`compose --wait: gave up waiting for ${waiting.join(', ') || 'any container'}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
