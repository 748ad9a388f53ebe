import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycleIn, fromSrc, graphOf, importsOf, type SourceImport, SRC, sourceFiles } from './source-graph.js';

/**
 * The server's folders form layers, and nothing imports upward (issue 36). The layers are the architecture page's
 * ("## Layers", top first), so the page and the code cannot drift apart; no file of src is in an import cycle.
 */

const ARCHITECTURE_PAGE = resolve(SRC, '../../../apps/docs/site/contributing/architecture.md');

/** The root files of src, as a layer names them. */
const ROOT = '';

/** The layers, top first: the top-level folders of src each holds, ROOT for the files directly in src. */
function layersOf(markdown: string): string[][] {
  const section = /^## Layers\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? '';
  // A numbered item, with the lines that continue it.
  return [...section.matchAll(/^\d+\.\s+(.*(?:\n(?!\d+\.|\n).*)*)/gm)].map(([, item = '']) =>
    [...item.matchAll(/`([\w-]+)\/`/g)].map(([, folder = '']) => (folder === 'src' ? ROOT : folder)),
  );
}

/** The layer's index of a file (0 is the top), by the top-level folder it is in. */
function layerIndexOf(layers: readonly string[][], file: string): number {
  const path = fromSrc(file).split('/');
  const folder = path.length > 1 ? (path[0] ?? ROOT) : ROOT;
  return layers.findIndex((layer) => layer.includes(folder));
}

/** The imports that reach a higher layer than their own file's. */
function upwardImports(layers: readonly string[][], imports: readonly SourceImport[]): string[] {
  return imports
    .filter(({ file, target }) => layerIndexOf(layers, target) < layerIndexOf(layers, file))
    .map(({ file, target }) => `${fromSrc(file)} imports ${fromSrc(target)}, a layer above it`);
}

describe('the layers of src', () => {
  const layers = layersOf(readFileSync(ARCHITECTURE_PAGE, 'utf8'));
  const files = sourceFiles();
  const imports = files.flatMap(importsOf);

  it('are the architecture page’s, and hold every top-level folder of src once', () => {
    expect(layers.length).toBeGreaterThanOrEqual(5);
    const folders = readdirSync(SRC, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : []));
    expect([...layers.flat()].sort()).toEqual([ROOT, ...folders].sort());
    expect(imports.length).toBeGreaterThan(300);
  });

  it('has no import to a higher layer', () => {
    expect(upwardImports(layers, imports)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cycleIn(graphOf(imports))?.map(fromSrc) ?? null).toBeNull();
  });

  it('finds an upward import where there is one (the check itself)', () => {
    const page = [
      '## Layers',
      '',
      '1. `entry/`: the binary.',
      '2. `http/` and',
      '   `demo/`: above the modules.',
      '3. `modules/`: the features.',
      '4. The root files of `src/`.',
      '',
      '## Next',
      '',
      '1. `other/`',
    ].join('\n');
    const parsed = layersOf(page);
    expect(parsed).toEqual([['entry'], ['http', 'demo'], ['modules'], [ROOT]]);
    const at = (path: string) => resolve(SRC, path);
    const planted = [
      { file: at('modules/items/store.ts'), target: at('http/app.ts') },
      { file: at('env.ts'), target: at('modules/items/index.ts') },
      { file: at('http/app.ts'), target: at('demo/index.ts') },
      { file: at('entry/main.ts'), target: at('logger.ts') },
    ];
    expect(upwardImports(parsed, planted)).toEqual([
      'modules/items/store.ts imports http/app.ts, a layer above it',
      'env.ts imports modules/items/index.ts, a layer above it',
    ]);
  });
});
