import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads a V8 CPU profile (`node --cpu-prof`) into the functions that spent the most time themselves: where the
 * server's own CPU goes, as opposed to waiting for the database.
 */

/**
 * @typedef {object} ProfileEntry
 * @property {string} fn
 * @property {string} where      package or file, and line
 * @property {number} selfMs
 * @property {number} percent    of all samples
 */

/**
 * @typedef {object} ProfileSummary
 * @property {string} file
 * @property {number} totalMs
 * @property {number} idlePercent       (idle) samples: the process was waiting (for PostgreSQL or the network)
 * @property {number} gcPercent
 * @property {ProfileEntry[]} top
 * @property {Array<{ where: string, percent: number }>} byPackage
 */

/**
 * @typedef {object} CpuProfileNode
 * @property {number} id
 * @property {{ functionName: string, url: string, lineNumber: number }} callFrame
 */

/**
 * Where a script URL lives: the npm package (from a pnpm path) or the file.
 * @param {string} url
 */
function locate(url) {
  if (url === '') return '(native)';
  const pnpm = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm?.[1]) return pnpm[1];
  if (url.startsWith('node:')) return 'node';
  const dist = /packages\/server\/dist\/(.*)$/.exec(url);
  if (dist?.[1]) return `server/dist/${dist[1]}`;
  return url.replace(/^file:\/\//, '');
}

/**
 * @param {string} dir   the --cpu-prof-dir; the newest profile in it is read
 * @param {number} [topN]
 * @returns {ProfileSummary}
 */
export function summarizeProfile(dir, topN = 15) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const file = files[files.length - 1];
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = /** @type {{ nodes: CpuProfileNode[], samples: number[], timeDeltas: number[] }} */ (
    JSON.parse(readFileSync(join(dir, file), 'utf8'))
  );
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<string, { fn: string, where: string, us: number }>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const packages = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (!node) return;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = functionName || '(anonymous)';
    const where = locate(url);
    const key = `${fn}@${url}:${lineNumber}`;
    const entry = self.get(key) ?? { fn, where: url ? `${where}:${lineNumber + 1}` : where, us: 0 };
    entry.us += us;
    self.set(key, entry);
    const bucket = fn.startsWith('(') && url === '' ? fn : where;
    packages.set(bucket, (packages.get(bucket) ?? 0) + us);
  });
  const pct = (/** @type {number} */ us) => Math.round((1000 * us) / Math.max(total, 1)) / 10;
  const idle = [...self.values()].filter((e) => e.fn === '(idle)').reduce((a, e) => a + e.us, 0);
  const gc = [...self.values()].filter((e) => e.fn === '(garbage collector)').reduce((a, e) => a + e.us, 0);
  return {
    file: join(dir, file),
    totalMs: Math.round(total / 1000),
    idlePercent: pct(idle),
    gcPercent: pct(gc),
    top: [...self.values()]
      .filter((e) => e.fn !== '(idle)' && e.fn !== '(program)')
      .sort((a, b) => b.us - a.us)
      .slice(0, topN)
      .map((e) => ({ fn: e.fn, where: e.where, selfMs: Math.round(e.us / 1000), percent: pct(e.us) })),
    byPackage: [...packages.entries()]
      .filter(([where]) => where !== '(idle)' && where !== '(program)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([where, us]) => ({ where, percent: pct(us) })),
  };
}
