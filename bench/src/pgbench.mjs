import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentile } from './util.mjs';

/**
 * The database floor: pgbench replaying a scenario's captured statements, in order and as prepared statements
 * (postgres.js prepares every statement too), at the benchmark's concurrency. Each statement keeps the server's
 * text and parameters; only the values that vary per request (an item id, a quantity, a new SKU) become pgbench
 * variables, so what is measured is what the database needs to answer that request, authentication and rate
 * limiting included.
 */

/**
 * @typedef {object} Script
 * @property {string} text                    the pgbench script
 * @property {Record<string, string>} defines  -D variables (fixed parameter values)
 */

/**
 * pgbench reads `:name` as a variable even inside string literals (`'HH24:MI:SS'`): such literals are rewritten as
 * E'' strings with the colon escaped, which PostgreSQL reads as the same value.
 * @param {string} sql
 */
function escapeColonsInLiterals(sql) {
  return sql.replace(/(^|[^A-Za-z0-9_])'((?:[^']|'')*)'/g, (whole, before, body) => {
    if (!/:[A-Za-z_]/.test(body)) return whole;
    const escaped = String(body).replaceAll('\\', '\\\\').replaceAll("''", "\\'").replaceAll(':', '\\x3A');
    return `${before}E'${escaped}'`;
  });
}

/**
 * Turns captured statements into a pgbench script.
 * @param {import('./capture.mjs').Statement[]} statements
 * @param {import('./scenarios.mjs').Variation[]} variations
 * @param {string} prefix   names this script's -D variables apart from another script's in the same run
 * @returns {Script}
 */
export function toScript(statements, variations, prefix) {
  /** @type {Record<string, string>} */
  const defines = {};
  /** @type {Map<string, string>} */
  const byValue = new Map();
  const lines = [...new Set(variations.flatMap((v) => v.set))];
  for (const statement of statements) {
    const sql = escapeColonsInLiterals(statement.sql.trim()).replace(/\$(\d+)/g, (_whole, index) => {
      const value = statement.params[Number(index) - 1];
      if (value === null || value === undefined) return 'NULL';
      const varied = variations.find((v) => v.value === value);
      if (varied) return `(${varied.expression})`;
      let name = byValue.get(value);
      if (!name) {
        name = `${prefix}${byValue.size + 1}`;
        byValue.set(value, name);
        defines[name] = value;
      }
      return `:${name}`;
    });
    lines.push(`${sql};`);
  }
  return { text: `${lines.join('\n')}\n`, defines };
}

/**
 * @typedef {object} PgbenchResult
 * @property {number} tps
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} errors        failed transactions and aborted clients
 * @property {number} transactions
 */

/**
 * @typedef {object} PgbenchOptions
 * @property {string} pgbench       path of the pgbench binary
 * @property {{ host: string, port: number }} database
 * @property {Array<{ script: Script, weight: number }>} scripts
 * @property {number} clients
 * @property {number} warmupSeconds
 * @property {number} durationSeconds
 * @property {string} workDir
 */

/**
 * @param {string} file
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function run(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs pgbench: a warm-up, then the measured run with a per-transaction log for the latency percentiles.
 * @param {PgbenchOptions} options
 * @returns {Promise<PgbenchResult>}
 */
export async function runPgbench(options) {
  rmSync(options.workDir, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  const args = [
    '-n',
    '-M',
    'prepared',
    '-h',
    options.database.host,
    '-p',
    String(options.database.port),
    '-U',
    'postgres',
    '-c',
    String(options.clients),
    '-j',
    '2',
  ];
  options.scripts.forEach(({ script, weight }, i) => {
    const file = join(options.workDir, `script-${i}.sql`);
    writeFileSync(file, script.text);
    args.push('-f', `${file}@${weight}`);
    for (const [name, value] of Object.entries(script.defines)) args.push('-D', `${name}=${value}`);
  });
  if (options.warmupSeconds > 0) {
    const warm = await run(options.pgbench, [...args, '-T', String(options.warmupSeconds), 'postgres']);
    if (warm.code !== 0) throw new Error(`pgbench warm-up failed (${warm.code}):\n${warm.stderr}${warm.stdout}`);
  }
  const prefix = join(options.workDir, 'tx');
  const measured = await run(options.pgbench, [
    ...args,
    '-T',
    String(options.durationSeconds),
    '-l',
    `--log-prefix=${prefix}`,
    'postgres',
  ]);
  const output = `${measured.stdout}\n${measured.stderr}`;
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
  if (!tps?.[1]) throw new Error(`pgbench failed (${measured.code}):\n${output}`);
  const failed = /number of failed transactions: (\d+)/.exec(output);
  const aborted = (output.match(/client \d+ aborted/g) ?? []).length;
  const processed = /number of transactions actually processed: (\d+)/.exec(output);
  /** @type {number[]} */
  const latencies = [];
  for (const file of readdirSync(options.workDir).filter((f) => f.startsWith('tx.'))) {
    for (const line of readFileSync(join(options.workDir, file), 'utf8').split('\n')) {
      const fields = line.split(' ');
      if (fields.length >= 3) latencies.push(Number(fields[2]) / 1000);
    }
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    tps: Number(tps[1]),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: Number(failed?.[1] ?? 0) + aborted,
    transactions: Number(processed?.[1] ?? latencies.length),
  };
}
