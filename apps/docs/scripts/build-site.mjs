// `vitepress build site`, at a lower CPU priority in CI: the site is built while the server's suite, the longest,
// runs, and it should take the cores the server's tests leave (as every other suite does: tooling/vitest).
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { build } from 'vitepress';

if (process.env.CI) setPriority(10);
await build(fileURLToPath(new URL('../site', import.meta.url)));
