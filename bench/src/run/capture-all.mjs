import { join } from 'node:path';
import { capture } from '../capture.mjs';
import { toScript } from '../pgbench.mjs';
import { MIX, pageScenario, SCENARIOS, scenario } from '../scenarios.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, sleep } from '../util.mjs';
import { checkFeedPage } from './feed-step.mjs';
import { DEEP_PAGES, MAIN, SCALING_SCENARIOS } from './options.mjs';

/**
 * The capture run: one request per scenario against a server whose statements PostgreSQL logs, giving the SQL the
 * database floor replays and the response bytes the HTTP floor sends.
 */

/** @typedef {Awaited<ReturnType<typeof import('../cluster.mjs').startCluster>>} Cluster */
/** @typedef {import('../capture.mjs').Capture & { variations: import('../scenarios.mjs').Variation[] }} Captured */

/**
 * A write records its change with an id the server makes (randomUUID()), and a change's id is unique: the floor
 * makes a new one per transaction. The captured one is the workspace's newest change, read back after the write.
 * @param {import('postgres').Sql} admin
 * @param {string} slug
 * @returns {Promise<import('../scenarios.mjs').Variation[]>}
 */
async function recordedChangeId(admin, slug) {
  const [change] = await admin`
    SELECT c.id::text AS id FROM changes c JOIN organizations o ON o.id = c.organization_id
    WHERE o.slug = ${slug} ORDER BY c.position DESC LIMIT 1
  `;
  return change ? [{ value: String(change.id), expression: 'gen_random_uuid()', set: [] }] : [];
}

/**
 * A server of `main` whose every statement PostgreSQL logs, for `use` to capture requests with; stopped, and the
 * logging reset, after it.
 * @template T
 * @param {{ cluster: Cluster, admin: import('postgres').Sql, work: string, main?: string, name?: string }} where
 * @param {(captureOne: (request: import('../scenarios.mjs').Request, key: string) => Promise<import('../capture.mjs').Capture>) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withCaptureServer({ cluster, admin, work, main = MAIN, name = 'capture' }, use) {
  const captureServer = await startServer({
    main,
    databaseUrl: cluster.url,
    port: await freePort(),
    workers: 1,
    logFile: join(work, `${name}-server.log`),
    // One connection and no sync worker: the log then holds this request's statements and nothing else.
    env: { DATABASE_POOL_SIZE: '1', SYNC_WORKER: 'off' },
  });
  try {
    await admin`ALTER SYSTEM SET log_statement = 'all'`;
    await admin`SELECT pg_reload_conf()`;
    await sleep(500);
    return await use((request, key) => capture({ origin: captureServer.origin, csvLog: cluster.csvLog }, request, key));
  } finally {
    await admin`ALTER SYSTEM RESET log_statement`;
    await admin`SELECT pg_reload_conf()`;
    await captureServer.stop();
  }
}

/**
 * @param {{ cluster: Cluster, admin: import('postgres').Sql, work: string,
 *   targets: Record<string, import('../scenarios.mjs').Target> }} run
 */
export async function captureScenarios({ cluster, admin, work, targets }) {
  log('capture run (log_statement = all)');
  /** @type {Map<string, Captured>} */
  const captures = new Map();
  const deep = DEEP_PAGES.map(pageScenario);
  /** @type {Array<[string, import('../scenarios.mjs').Scenario]>} */
  const toCapture = [
    ...SCENARIOS.map((s) => /** @type {[string, typeof s]} */ (['measured', s])),
    ...deep.map((s) => /** @type {[string, typeof s]} */ (['measured', s])),
    ...['small', 'large'].flatMap((t) =>
      SCALING_SCENARIOS.map(
        (name) => /** @type {[string, import('../scenarios.mjs').Scenario]} */ ([t, scenario(name)]),
      ),
    ),
  ];
  await withCaptureServer({ cluster, admin, work }, async (captureOne) => {
    for (const [targetName, s] of toCapture) {
      const target = /** @type {import('../scenarios.mjs').Target} */ (targets[targetName]);
      const { request, variations } = s.capture(target);
      const captured = await captureOne(request, target.key);
      if (captured.statements.length === 0) throw new Error(`no SQL captured for ${s.name}`);
      const changeId = s.kind === 'write' ? await recordedChangeId(admin, target.slug) : [];
      captures.set(`${targetName}/${s.name}`, { ...captured, variations: [...variations, ...changeId] });
    }
  });
  log(`captured ${captures.size} scenarios`);
  checkFeedPage(/** @type {Captured} */ (captures.get('measured/changes')).response);

  /** @param {string} key */
  const captured = (key) => {
    const found = captures.get(key);
    if (!found) throw new Error(`nothing captured for ${key}`);
    return found;
  };
  /** The floor scripts of a scenario (the mix: one per part, weighted). @param {string} targetName @param {string} name */
  const scriptsOf = (targetName, name) => {
    const parts = name === 'mixed' ? MIX : [/** @type {const} */ ([name, 1])];
    return parts.map(([part, weight], i) => {
      const c = captured(`${targetName}/${part}`);
      return { script: toScript(c.statements, c.variations, `p${i}_`), weight };
    });
  };
  /** @param {string} targetName @param {string} name */
  const routesOf = (targetName, name) => {
    const parts = name === 'mixed' ? MIX.map(([part]) => part) : [name];
    return parts.map((part) => {
      const s = scenario(part);
      const { response } = captured(`${targetName}/${part}`);
      return {
        method: s.method,
        pattern: s.pattern.source,
        status: response.status,
        headers: response.headers,
        body: response.body.toString('base64'),
      };
    });
  };
  return { captured, scriptsOf, routesOf };
}

/** @typedef {Awaited<ReturnType<typeof captureScenarios>>} Captures */
