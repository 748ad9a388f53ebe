import { COMMANDS } from './commands/index.js';
import { usageLine } from './spec.js';
import { closest, listed } from './suggest.js';

export type OperatorCommand = (typeof COMMANDS)[number];

/** The command an argv names (one or two words), and the arguments after them. */
export function findCommand(argv: readonly string[]): { command: OperatorCommand; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, args: argv.slice(words) };
  }
  return null;
}

export const isOperatorCommand = (argv: readonly string[]) => findCommand(argv) !== null;

/** The first words of the two-word commands (`org`, `key`, `listing`…), in the order the commands come. */
export const NOUNS: readonly string[] = [
  ...new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0] ?? c.name)),
];

/** The second words of a noun's commands (`create`, `list`, `set-plan` for `org`). */
export const verbsOf = (noun: string) =>
  COMMANDS.filter((c) => c.name.startsWith(`${noun} `)).map((c) => c.name.slice(noun.length + 1));

const quote = (words: readonly string[]) => `"${words.join(' ')}"`;

/** What a mistyped noun, or a noun's mistyped command, was meant to be: `org list` for `orgg list` or `org lst`. */
function meantBy(noun: string, verb: string | undefined): string[][] {
  if (verb === undefined) return [[noun]];
  const verbs = verbsOf(noun);
  const near = verbs.includes(verb) ? [verb] : closest(verb, verbs);
  return near.length > 0 ? near.map((v) => [noun, v]) : [[noun]];
}

/**
 * The line for an argv that names no command, with the command meant when one is close (`orgg list`, `org lst`,
 * `migrat`). `others` are the binary's commands that are not operator commands (`start`, `sync-worker`).
 */
export function unknownCommandLine(argv: readonly string[], others: readonly string[] = []): string {
  const [first = '', second] = argv;
  const verb = second?.startsWith('-') ? undefined : second;
  const typed = quote(verb === undefined ? [first] : [first, verb]);
  if (NOUNS.includes(first)) {
    if (verb === undefined) {
      const commands = `one of ${listed(verbsOf(first))} (see "coinventory-server ${first} --help")`;
      return usageLine(`"${first}" needs a command`, commands);
    }
    const near = closest(verb, verbsOf(first));
    const fix =
      near.length > 0
        ? `did you mean ${listed(near.map((v) => quote([first, v])))}?`
        : `the ${first} commands are ${listed(verbsOf(first))}`;
    return usageLine(`unknown command ${typed}`, fix);
  }
  const singles = [...others, ...COMMANDS.filter((c) => !c.name.includes(' ')).map((c) => c.name)];
  const meant = closest(first, [...singles, ...NOUNS]).flatMap((word) =>
    NOUNS.includes(word) ? meantBy(word, verb) : [[word]],
  );
  const fix =
    meant.length > 0 ? `did you mean ${listed(meant.map(quote))}?` : 'run "coinventory-server --help" for the commands';
  return usageLine(`unknown command ${typed}`, fix);
}
