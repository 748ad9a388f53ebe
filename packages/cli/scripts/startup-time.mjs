// Measures how long `coinventory --help` takes, start to exit: the median of 20 runs after 3 warm-ups, next to a
// bare `node -e 0` for scale. Usage: node scripts/startup-time.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/coinventory.js', import.meta.url));
const runs = Number(process.argv[2] ?? 20);

function measure(args) {
  const times = [];
  for (let i = 0; i < runs + 3; i += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}`);
    if (i >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { median: at(0.5), min: times[0], p90: at(0.9) };
}

const fmt = ({ median, min, p90 }) => `median ${median.toFixed(1)} ms (min ${min.toFixed(1)}, p90 ${p90.toFixed(1)})`;
console.log(`node ${process.version}, ${runs} runs each`);
console.log(`coinventory --help  ${fmt(measure([BIN, '--help']))}`);
console.log(`node -e 0           ${fmt(measure(['-e', '0']))}`);
