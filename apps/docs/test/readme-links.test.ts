// Every link of the repository's READMEs resolves in a clone: a relative link names a file or directory that exists
// (and a `#fragment`, a heading of that Markdown file), so nothing points outside the repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/** The READMEs a reader meets: the root's, each package's and app's, and the ones beside tools. */
function readmes(): string[] {
  const found = ['README.md', '.changeset/README.md', 'patches/README.md', 'release/README.md', 'bench/README.md'];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(REPO, group))) found.push(`${group}/${name}/README.md`);
  }
  return found.filter((file) => existsSync(join(REPO, file)));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1] ?? '')));
}

/** Markdown links `[text](target)` outside code blocks and code spans. */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

describe('README links', () => {
  const files = readmes();

  it('cover the root README and every package', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'packages/sdk/README.md',
        'packages/cli/README.md',
        'packages/server/README.md',
      ]),
    );
  });

  for (const file of files) {
    it(`${file}: every relative link resolves inside the repository`, () => {
      const problems: string[] = [];
      const here = dirname(join(REPO, file));
      for (const target of links(join(REPO, file))) {
        if (/^(https?:|mailto:)/.test(target)) {
          if (target.startsWith('http:') && !/^http:\/\/(localhost|127\.0\.0\.1)/.test(target))
            problems.push(`${target}: use https`);
          continue;
        }
        const [path = '', fragment] = target.split('#');
        const resolved = path === '' ? join(REPO, file) : join(here, decodeURIComponent(path));
        if (relative(REPO, resolved).startsWith('..')) {
          problems.push(`${target}: outside the repository`);
          continue;
        }
        if (!existsSync(resolved)) {
          problems.push(`${target}: no such file`);
          continue;
        }
        if (fragment && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchors(resolved).has(fragment))
          problems.push(`${target}: no heading #${fragment} in ${relative(REPO, resolved)}`);
      }
      expect(problems).toEqual([]);
    });
  }
});
