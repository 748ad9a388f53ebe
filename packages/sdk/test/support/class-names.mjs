// Prints, as JSON, the class names the built package shows in each of its builds: every exported class's `name`, the
// `constructor.name` of errors, and the first two lines of their stacks. Run by plain Node, whose stack traces are
// the ones users see (vitest formats them itself). Usage: node class-names.mjs <dist folder>
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2]);
const builds = {
  esm: await import(pathToFileURL(join(dist, 'index.js')).href),
  cjs: createRequire(import.meta.url)(join(dist, 'index.cjs')),
};
const init = { status: 404, code: 'NOT_FOUND', message: 'Not found', issues: undefined, body: undefined };
const report = {};
for (const [build, sdk] of Object.entries(builds)) {
  const thrown = [
    sdk.APIError.from(404, { code: 'NOT_FOUND', message: 'Not found' }, new Headers()),
    sdk.APIError.from(418, "I'm a teapot", new Headers()),
  ];
  report[build] = {
    classes: Object.fromEntries(
      Object.entries(sdk)
        .filter(([name, value]) => typeof value === 'function' && name !== 'default')
        .map(([name, value]) => [name, value.name]),
    ),
    constructed: [
      new sdk.NotFoundError({ ...init, headers: new Headers() }),
      new sdk.APIError({ ...init, headers: new Headers() }),
    ].map((error) => error.constructor.name),
    thrown: thrown.map((error) => ({ name: error.constructor.name, stack: error.stack.split('\n').slice(0, 2) })),
  };
}
console.log(JSON.stringify(report));
