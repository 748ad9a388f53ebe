// The CLI reference (an index and one page per top-level command) and the operator commands reference, laid out
// from the binaries' own --help (help-doc.mjs reads a help as documentation).
import { inline, parseHelp, renderSection, usageBlock } from './help-doc.mjs';
import { subcommands } from './render.mjs';

/** The section every `coinventory` command repeats; the index has it once, as the root's options. */
const GLOBAL_OPTIONS = 'Global Options';

/** A command's name in its parent's list of commands: `list|ls [options]` is `list`. */
const commandName = (term) => /^[a-z][a-z-]*/.exec(term)?.[0];

/** A help as Markdown: its usage, its description, then its sections under headings of `level`. */
function helpBody(help, { level, link, rename = {} }) {
  const parsed = parseHelp(help);
  const out = [usageBlock(parsed.usage), ...parsed.description.map((paragraph) => `${inline(paragraph)}\n`)];
  for (const section of parsed.sections) {
    if (section.heading === GLOBAL_OPTIONS) continue;
    const heading = rename[section.heading] ?? section.heading;
    out.push(renderSection({ ...section, heading }, { level, link }));
  }
  return out.join('\n');
}

/** Where a top-level command's page is. */
export const cliPageLink = (name) => `/reference/cli/${name}`;

/** The anchor of a command on its top-level command's page: `coinventory items list` is `list`. */
const anchorOf = (path) => path.slice(2).join('-');

/**
 * The CLI reference from `commandTree(help, ['coinventory'])`: `index` (reference/cli.md: the global options, the
 * commands and what the root's help says of all of them) and `pages`, one per top-level command with its
 * subcommands (reference/cli/<name>.md), in the order the CLI's help lists them.
 */
export function renderCliPages(commands) {
  const [root] = commands;
  const names = subcommands(root.help);
  const pages = names.map((name) => ({
    name,
    markdown: renderCommandPage(commands.filter((command) => command.path[1] === name)),
  }));
  return { index: renderCliIndex(root, names), pages };
}

function renderCliIndex(root, names) {
  const link = (term) => {
    const name = commandName(term);
    return names.includes(name) ? cliPageLink(name) : undefined;
  };
  return [
    '---\noutline: [2, 2]\npageClass: cli-reference\n---\n',
    '# CLI reference\n',
    'Every command of `coinventory`, from its own help (`coinventory <command> --help`), generated from the CLI at build time: this page has what all commands share, and each command has a page of its own with its subcommands. For a tour, read [the CLI guide](/guide/cli).\n',
    helpBody(root.help, { level: 2, link, rename: { Options: 'Global options' } }),
  ].join('\n');
}

function renderCommandPage([command, ...subs]) {
  const link = (term) => {
    const name = commandName(term);
    return subs.some((sub) => sub.path[2] === name) ? `#${name}` : undefined;
  };
  const out = [
    '---\noutline: [2, 2]\npageClass: cli-reference\n---\n',
    `# ${command.path.join(' ')}\n`,
    helpBody(command.help, { level: 2, link }),
    `Every \`coinventory\` command also takes the [global options](/reference/cli#global-options) (\`--api-key\`, \`--profile\`, \`--base-url\`, \`--no-color\`).\n`,
  ];
  for (const sub of subs)
    out.push(
      `## ${sub.path.join(' ')} {#${anchorOf(sub.path)}}\n`,
      helpBody(sub.help, { level: 3, link: () => undefined }),
    );
  return out.join('\n');
}

/** Operator commands: `coinventory-server --help` lists them (`name [sub]  summary`); each has its own --help. */
export function operatorCommands(helpText) {
  const section = helpText.split(/\n\n+/).find((block) => block.startsWith('Commands:')) ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)?)(?= {2,}\S)/.exec(line)?.[1])
    .filter((name) => name !== undefined);
}

const operatorAnchor = (name) => name.replace(/ /g, '-');

export function renderOperatorReference(help) {
  const main = help([]);
  const names = operatorCommands(main);
  const link = (term) => (names.includes(term) ? `#${operatorAnchor(term)}` : undefined);
  const out = [
    '---\noutline: [2, 2]\npageClass: cli-reference\n---\n',
    '# Operator commands reference\n',
    "Every command of `coinventory-server`, the server's binary (from a clone: `node packages/server/dist/main.js`), from its own help (`coinventory-server <command> --help`), generated at build time. For when to use which, read [the operator guide](/guide/operator-commands).\n",
    '## coinventory-server {#coinventory-server}\n',
    helpBody(main, { level: 3, link }),
  ];
  for (const name of names)
    out.push(
      `## coinventory-server ${name} {#${operatorAnchor(name)}}\n`,
      helpBody(help(name.split(' ')), { level: 3 }),
    );
  return out.join('\n');
}
