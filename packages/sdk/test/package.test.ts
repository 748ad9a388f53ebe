import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import vm from 'node:vm';
import { ROUTES } from '@coinventory/contract/routes';
import { build } from 'esbuild';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// Checks of the built package (dist/), as it will be published. `turbo run test` builds it first.
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const run = promisify(execFile);
const read = (file: string) => readFileSync(join(dist, file), 'utf8');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

type Sdk = typeof import('../src/index.js');
/** What test/support/class-names.mjs reports for one build. */
type ClassNames = {
  classes: Record<string, string>;
  constructed: string[];
  thrown: { name: string; stack: string[] }[];
};

beforeAll(() => {
  if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is missing: run `pnpm run build` in packages/sdk');
});

describe('publish shape', () => {
  it('passes publint (strict) and @arethetypeswrong/cli', async () => {
    const [publint, attw] = await Promise.all([
      run(bin('publint'), ['--strict', '--pack', 'npm'], { cwd: root }),
      run(bin('attw'), ['--pack', '.', '--format', 'ascii'], { cwd: root }),
    ]);
    expect(publint.stdout).toContain('All good!');
    expect(attw.stdout).toContain('No problems found');
    // Two packs and a type analysis of every entry: 10-20 s alone, several times that on a loaded CI machine.
  }, 120_000);

  it('has no runtime dependency and ships only dist (and its changelog), publicly, under the MIT license', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.peerDependencies).toBeUndefined();
    expect(pkg.files).toEqual(['dist', 'CHANGELOG.md']);
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    expect(pkg.publishConfig).toEqual({ access: 'public' });
  });

  it('bundles the contract without zod and without Node-only imports', () => {
    for (const file of ['index.js', 'index.cjs']) {
      const code = read(file);
      expect(code).not.toMatch(/zod/i);
      expect(code).not.toMatch(/@coinventory\/contract|\brequire\(|from ['"]node:|\bBuffer\b/);
      expect(code).toContain('"items.valuations"');
    }
  });

  it('ships self-contained declarations: no import of the contract, zod or Node', () => {
    for (const file of ['index.d.ts', 'index.d.cts']) {
      const types = read(file);
      expect(types).not.toMatch(
        /^\s*import\s|\bimport\(|\bfrom\s+['"]|\brequire\(|zod|['"]@coinventory\/contract|NodeJS\./m,
      );
      expect(types).toContain('type Item = {');
    }
  });
});

describe('published types', () => {
  it("are identical to the contract types they were flattened from, and type each route's response", () => {
    const exported = /export \{([^}]*)\};\s*$/.exec(read('index.d.ts'))?.[1] ?? '';
    const contractTypes = new Set(
      (
        /export \{([^}]*)\};\s*$/.exec(
          readFileSync(join(root, 'node_modules/@coinventory/contract/dist/index.d.ts'), 'utf8'),
        )?.[1] ?? ''
      )
        .split(',')
        .map((name) => name.trim().replace(/^type /, '')),
    );
    const names = exported
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name.startsWith('type '))
      .map((name) => name.slice('type '.length))
      .filter((name) => contractTypes.has(name));
    expect(names).toEqual(expect.arrayContaining(['Item', 'Me', 'ListItemsParams', 'CreateItemInput', 'Invoice']));
    expect(names.length).toBeGreaterThanOrEqual(27);

    // Strict identity, not mere assignability: the check `expectTypeOf().toEqualTypeOf()` uses.
    const checkDir = join(root, 'node_modules/.cache/coinventory-sdk');
    mkdirSync(checkDir, { recursive: true });
    const checkFile = join(checkDir, 'published-types.check.ts');
    writeFileSync(
      checkFile,
      [
        "import type * as Contract from '@coinventory/contract';",
        `import type * as Published from '${join(dist, 'index.js')}';`,
        'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
        'type Expect<T extends true> = T;',
        ...names.map((name) => `export type Check${name} = Expect<Equal<Published.${name}, Contract.${name}>>;`),
        // What `client.request(key, …)` resolves to, for every route: the body the contract's router declares.
        `import type { RouteResponses } from '${join(root, 'src/core/contract-routes.js')}';`,
        'declare const client: Published.Coinventory;',
        ...Object.keys(ROUTES).flatMap((key, i) => [
          `export const body${i} = client.request('${key}', null as never);`,
          `export type CheckRoute${i} = Expect<Equal<Awaited<typeof body${i}>, RouteResponses['${key}']>>;`,
        ]),
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([checkFile], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});

describe('dual ESM/CJS build', () => {
  it('exports the same API from import and require, with Coinventory as default', async () => {
    const esm = (await import(join(dist, 'index.js'))) as Sdk & { default: unknown };
    const cjs = createRequire(import.meta.url)(join(dist, 'index.cjs')) as Sdk & { default: unknown };
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    expect(esm.default).toBe(esm.Coinventory);
    expect(cjs.default).toBe(cjs.Coinventory);
  });

  it("carries package.json's version in both builds (the User-Agent's)", async () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const esm = (await import(join(dist, 'index.js'))) as Sdk;
    const cjs = createRequire(import.meta.url)(join(dist, 'index.cjs')) as Sdk;
    expect([esm.VERSION, cjs.VERSION]).toEqual([version, version]);
  });

  it('answers instanceof across the two builds, both ways (the dual package hazard)', async () => {
    const esm = (await import(join(dist, 'index.js'))) as Sdk;
    const cjs = createRequire(import.meta.url)(join(dist, 'index.cjs')) as Sdk;
    expect(esm.NotFoundError).not.toBe(cjs.NotFoundError);
    const body = { code: 'NOT_FOUND', message: 'Not found' };
    for (const [from, to] of [
      [cjs, esm],
      [esm, cjs],
    ] as const) {
      const error = from.APIError.from(404, body, new Headers({ 'X-Request-Id': 'req_1' }));
      expect(error).toBeInstanceOf(to.NotFoundError);
      expect(error).toBeInstanceOf(to.APIError);
      expect(error).toBeInstanceOf(to.CoinventoryError);
      expect(error).not.toBeInstanceOf(to.ConflictError);
      expect(error).not.toBeInstanceOf(to.APIConnectionError);
      const limited = from.APIError.from(429, body, new Headers({ 'Retry-After': '2' }));
      expect(limited).toBeInstanceOf(to.RateLimitError);
      expect(new from.APIConnectionTimeoutError(5)).toBeInstanceOf(to.APIConnectionError);
      expect(new from.APIUserAbortError()).not.toBeInstanceOf(to.APIConnectionError);
    }
  });

  it('keeps class names in constructor.name and stack traces, in both builds', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'test/support/class-names.mjs'), dist]);
    const report = JSON.parse(stdout) as Record<string, ClassNames>;
    expect(Object.keys(report)).toEqual(['esm', 'cjs']);
    for (const names of Object.values(report)) {
      expect(Object.keys(names.classes)).toEqual(expect.arrayContaining(['Coinventory', 'NotFoundError', 'Items']));
      for (const [exported, name] of Object.entries(names.classes)) expect(name).toBe(exported);
      expect(names.constructed).toEqual(['NotFoundError', 'APIError']);
      expect(names.thrown).toEqual([
        {
          name: 'NotFoundError',
          stack: ['NotFoundError: Not found', expect.stringMatching(/^ {4}at APIError\.from /)],
        },
        { name: 'APIError', stack: ["APIError: I'm a teapot", expect.stringMatching(/^ {4}at APIError\.from /)] },
      ]);
    }
  });
});

describe('runtimes with fetch but without Node', () => {
  it('runs in a sandbox holding only web-standard globals', async () => {
    const bundled = await build({
      entryPoints: [join(dist, 'index.js')],
      bundle: true,
      format: 'iife',
      globalName: 'CoinventorySDK',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    const code = bundled.outputFiles[0]?.text ?? expect.fail('no bundle');
    const calls: { url: string; authorization: string | null }[] = [];
    const sandbox: Record<string, unknown> = {
      Headers,
      Response,
      AbortController,
      URLSearchParams,
      setTimeout,
      clearTimeout,
      fetch: async (url: string, init: RequestInit) => {
        calls.push({ url, authorization: new Headers(init.headers).get('authorization') });
        return Response.json({ organization: { slug: 'sandboxed' } });
      },
    };
    const context = vm.createContext(sandbox);
    vm.runInContext(code, context);
    // Logging at its most verbose and the hooks work there too, with no console (V8 gives a context one: removed).
    const slug = await vm.runInContext(
      `'process' in globalThis || 'require' in globalThis || 'Buffer' in globalThis || 'URL' in globalThis
        ? Promise.reject(new Error('Node globals leaked into the sandbox'))
        : (delete globalThis.console, new CoinventorySDK.Coinventory({
            apiKey: 'cvk_live_k',
            baseUrl: 'https://api.example/v1',
            logLevel: 'debug',
            onResponse: (event) => { globalThis.answered = event.status + ' ' + event.path; },
          }).me().then((me) => me.organization.slug))`,
      context,
    );
    expect(slug).toBe('sandboxed');
    expect(sandbox.console).toBeUndefined();
    expect(sandbox.answered).toBe('200 /me');
    expect(calls).toEqual([{ url: 'https://api.example/v1/me', authorization: 'Bearer cvk_live_k' }]);
  });
});

describe('size', () => {
  it('measures the packed tarball and the bundle of a minimal use, within budget', async () => {
    const { stdout } = await run(process.execPath, [join(root, 'scripts/size.mjs'), '--json'], { cwd: root });
    const sizes = JSON.parse(stdout) as {
      packed: { tarballBytes: number; unpackedBytes: number; files: string[] };
      minimal: { minifiedBytes: number; gzipBytes: number };
      everything: { minifiedBytes: number; gzipBytes: number };
      minimalContainsZod: boolean;
      minimalContainsWebhookVerification: boolean;
    };
    console.log(`[sdk size] ${JSON.stringify({ ...sizes, packed: { ...sizes.packed, files: undefined } })}`);
    expect(sizes.packed.files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'package.json']));
    expect(
      sizes.packed.files.every(
        (f) => f.startsWith('dist/') || /^(package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(f),
      ),
    ).toBe(true);
    expect(sizes.minimalContainsZod).toBe(false);
    // verifyWebhook and its helpers are tree-shaken out of a client-only bundle.
    expect(sizes.minimalContainsWebhookVerification).toBe(false);
    // Budgets: a regression (zod or the whole contract pulled in) multiplies these. The client builds every resource,
    // so a minimal use ships all of them: the changes feed, categories, warehouses, Idempotency-Key and conditional
    // requests took it from 11.7 to 15.7 KB minified (4.1 to 5.4 KB gzipped), and the documented declarations of
    // their types the tarball from 40 to 57 KB; webhook endpoints (nine routes in the route table, the resource, the
    // verification error) took it to 17.9 KB minified (5.7 KB gzipped), and their types and verifyWebhook's the
    // tarball to 73 KB; the batch, dry runs and the export (its route, the streaming request, the NDJSON reader) to
    // 20.5 KB minified (6.4 KB gzipped) and the tarball to 83 KB; `rawRequest` and error messages that say what failed
    // (the request's path matched against the route table to name a 404's object, the base URL hints) to 23.5 KB
    // minified (7.8 KB gzipped) and the tarball to 91 KB; adjustments, movements and reservations (seven routes in
    // the route table, the Reservations resource, two 409 classes) to 25.7 KB minified (8.2 KB gzipped), and their
    // documented types with every change's actor the tarball to 103 KB; the log and hooks (the retry loop shared by
    // every call), the hints of 401, 403 and 429 (the challenge parser, their sentences) and getBySku to 32.0 KB
    // minified (10.6 KB gzipped), and their documentation the tarball to 116 KB.
    expect(sizes.packed.tarballBytes).toBeLessThan(120 * 1024);
    expect(sizes.minimal.minifiedBytes).toBeLessThan(33.5 * 1024);
    expect(sizes.minimal.gzipBytes).toBeLessThan(11.25 * 1024);
  });

  it("keeps the README's size table true, and names the command that rewrites it when it is not", async () => {
    const script = join(root, 'scripts/size.mjs');
    const check = (...args: string[]) =>
      run(process.execPath, [script, '--check', ...args], { cwd: root }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code: number; stderr: string }) => ({ code: error.code, output: error.stderr }),
      );
    const readme = join(root, 'README.md');
    const current = await check();
    expect(current.code, current.output).toBe(0);
    // A figure changed by hand: the check fails, and says how to rewrite the table.
    const stale = join(mkdtempSync(join(tmpdir(), 'coinventory-sdk-readme-')), 'README.md');
    const text = readFileSync(readme, 'utf8');
    writeFileSync(stale, text.replace(/(size-table:start[\s\S]*?\| )(\d+\.\d) KB/, '$1999.9 KB'));
    const failed = await check('--readme', stale);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(`The size table in ${stale} is out of date.`);
    expect(failed.output).toMatch(/Rewrite it with: .*--filter @coinventory\/sdk run size --write\n$/);
  }, 120_000);
});
