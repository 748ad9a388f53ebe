import { Argument, type Command, type Option } from 'commander';
import { examples } from './shared.js';

/**
 * `coinventory completion bash|zsh|fish`: a completion script generated from the program's own command tree, so it
 * completes exactly the commands, options and option values (`--status in_<TAB>`) this version has. Nothing runs at
 * <TAB> time but the shell: the tree is written into the script.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface OptionSpec {
  /** `--status`, and `-o` when it has a short form. */
  names: string[];
  description: string;
  takesValue: boolean;
  choices: readonly string[];
}

/** One command of the tree, by its path of names (aliases give paths of their own). */
interface Node {
  path: string;
  subcommands: Array<{ name: string; description: string }>;
  options: OptionSpec[];
  /** Takes positional arguments (a file, an id): the shell's own file completion applies. */
  takesArguments: boolean;
  /** The values its first argument may take, when it names them (`completion <shell>`). */
  argumentChoices: readonly string[];
}

const HELP: OptionSpec = {
  names: ['--help', '-h'],
  description: 'show help for a command',
  takesValue: false,
  choices: [],
};

function optionSpec(option: Option): OptionSpec {
  return {
    names: [option.long, option.short].filter((name): name is string => typeof name === 'string'),
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? [],
  };
}

/** Every command of the program, depth first, each with the program's own options (they apply everywhere). */
export function commandTree(program: Command): Node[] {
  // The program's options apply to every command, except --version, which only the program itself takes.
  const globals = program.options.filter((option) => !option.hidden && option.long !== '--version').map(optionSpec);
  const nodes: Node[] = [];
  const visit = (command: Command, path: string) => {
    const children = command.commands.filter((child) => child.name() !== 'help');
    nodes.push({
      path,
      subcommands: children.flatMap((child) =>
        [child.name(), ...child.aliases()].map((name) => ({ name, description: child.description() })),
      ),
      options: [
        ...(command === program ? program.options.filter((option) => option.long === '--version').map(optionSpec) : []),
        ...(command === program ? [] : command.options.filter((option) => !option.hidden).map(optionSpec)),
        ...globals,
        HELP,
      ],
      takesArguments: command.registeredArguments.length > 0,
      argumentChoices: command.registeredArguments[0]?.argChoices ?? [],
    });
    for (const child of children) {
      for (const name of [child.name(), ...child.aliases()]) visit(child, path ? `${path} ${name}` : name);
    }
  };
  visit(program, '');
  return nodes;
}

/** A single-quoted word for sh, bash, zsh and fish alike. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** fish quotes differently: a backslash escapes a quote inside single quotes. */
const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `case` arms of a shell function answering one word list per command path (bash and zsh share this syntax). */
function caseFunction(name: string, arms: Array<[pattern: string, words: string[]]>): string {
  const body = arms
    .filter(([, words]) => words.length > 0)
    // printf, not echo: zsh's echo prints nothing for a lone '-' (the free-value mark), bash's takes '-n' as its own.
    .map(([pattern, words]) => `    ${quote(pattern)}) printf '%s\\n' ${quote(words.join(' '))} ;;`)
    .join('\n');
  return `${name}() {\n  case "$1" in\n${body}\n  esac\n}`;
}

/** The data both bash and zsh scripts read: subcommands, options, and the choices of each option taking one. */
function posixData(nodes: Node[]): string {
  return [
    caseFunction(
      '_coinventory_subcommands',
      nodes.map((node) => [node.path, node.subcommands.map((sub) => sub.name)]),
    ),
    caseFunction(
      '_coinventory_options',
      nodes.map((node) => [node.path, node.options.flatMap((option) => option.names)]),
    ),
    caseFunction(
      '_coinventory_arguments',
      nodes.map((node) => [node.path, [...node.argumentChoices]]),
    ),
    // Keyed "path|option": the values to offer after that option ('-' for an option taking a free value).
    caseFunction(
      '_coinventory_values',
      nodes.flatMap((node) =>
        node.options
          .filter((option) => option.takesValue)
          .flatMap((option) =>
            option.names.map((name): [string, string[]] => [
              `${node.path}|${name}`,
              option.choices.length ? [...option.choices] : ['-'],
            ]),
          ),
      ),
    ),
  ].join('\n\n');
}

function bashScript(nodes: Node[]): string {
  return `# coinventory completion for bash. Load it in this shell:   source <(coinventory completion bash)
# or for every new shell:   coinventory completion bash > ~/.local/share/bash-completion/completions/coinventory

${posixData(nodes)}

_coinventory() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmdpath='' word i values
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word=\${COMP_WORDS[i]}
    [[ $word == -* ]] && continue
    if [[ " $(_coinventory_subcommands "$cmdpath") " == *" $word "* ]]; then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done
  values=$(_coinventory_values "$cmdpath|$prev")
  if [[ $values == - ]]; then return 0; fi
  if [[ -n $values ]]; then COMPREPLY=( $(compgen -W "$values" -- "$cur") ); return 0; fi
  if [[ $cur == -* ]]; then
    COMPREPLY=( $(compgen -W "$(_coinventory_options "$cmdpath")" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$(_coinventory_subcommands "$cmdpath") $(_coinventory_arguments "$cmdpath")" -- "$cur") )
  fi
}
complete -o default -F _coinventory coinventory
`;
}

function zshScript(nodes: Node[]): string {
  const arms = nodes
    .filter((node) => node.subcommands.length > 0)
    .map((node) => {
      const items = node.subcommands.map((sub) =>
        quote(`${sub.name}:${oneLine(sub.description).replace(/:/g, '\\:')}`),
      );
      return `    ${quote(node.path)}) printf '%s\\n' ${items.join(' ')} ;;`;
    });
  const describe = `_coinventory_described() {\n  case "$1" in\n${arms.join('\n')}\n  esac\n}`;
  return `#compdef coinventory
# coinventory completion for zsh. Load it in this shell:   source <(coinventory completion zsh)
# or for every new shell, in a directory of your fpath:   coinventory completion zsh > "\${fpath[1]}/_coinventory"

${posixData(nodes)}

${describe}

_coinventory() {
  local cmdpath='' word i values
  local -a described
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    [[ $word == -* ]] && continue
    if [[ " $(_coinventory_subcommands "$cmdpath") " == *" $word "* ]]; then cmdpath=\${cmdpath:+$cmdpath }$word; fi
  done
  values=$(_coinventory_values "$cmdpath|\${words[CURRENT-1]}")
  if [[ $values == - ]]; then _message 'value'; return; fi
  if [[ -n $values ]]; then compadd -- \${=values}; return; fi
  if [[ \${words[CURRENT]} == -* ]]; then compadd -- \${=$(_coinventory_options "$cmdpath")}; return; fi
  values=$(_coinventory_arguments "$cmdpath")
  if [[ -n $values ]]; then compadd -- \${=values}; return; fi
  described=( "\${(@f)$(_coinventory_described "$cmdpath")}" )
  if [[ -n \${described[1]} ]]; then _describe 'command' described; else _files; fi
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _coinventory "$@"
else
  compdef _coinventory coinventory
fi
`;
}

function fishScript(nodes: Node[]): string {
  const lines = [
    '# coinventory completion for fish. Load it in this shell:   coinventory completion fish | source',
    '# or for every new shell:   coinventory completion fish > ~/.config/fish/completions/coinventory.fish',
    '',
    'function __coinventory_path',
    '    set -l tokens (commandline -opc)',
    '    set -l cmdpath',
    '    for word in $tokens[2..-1]',
    "        string match -q -- '-*' $word; and continue",
    '        if contains -- $word (__coinventory_subcommands (string join " " $cmdpath))',
    '            set -a cmdpath $word',
    '        end',
    '    end',
    '    string join " " $cmdpath',
    'end',
    '',
    'function __coinventory_at',
    '    set -l current (__coinventory_path)',
    '    test "$current" = "$argv[1]"',
    'end',
    '',
    'function __coinventory_subcommands',
    '    switch "$argv[1]"',
    ...nodes
      .filter((node) => node.subcommands.length > 0)
      .flatMap((node) => [
        `        case ${fishQuote(node.path)}`,
        `            printf '%s\\n' ${node.subcommands.map((sub) => fishQuote(sub.name)).join(' ')}`,
      ]),
    '    end',
    'end',
    '',
    'complete -c coinventory -f',
  ];
  for (const node of nodes) {
    const at = `-n ${fishQuote(`__coinventory_at ${fishQuote(node.path)}`)}`;
    for (const sub of node.subcommands) {
      lines.push(`complete -c coinventory ${at} -a ${fishQuote(sub.name)} -d ${fishQuote(oneLine(sub.description))}`);
    }
    for (const option of node.options) {
      const names = option.names
        .map((name) => (name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`))
        .join(' ');
      const value = option.choices.length
        ? ` -x -a ${fishQuote(option.choices.join(' '))}`
        : option.takesValue
          ? ' -r'
          : '';
      lines.push(`complete -c coinventory ${at} ${names}${value} -d ${fishQuote(oneLine(option.description))}`);
    }
    if (node.argumentChoices.length > 0) {
      lines.push(`complete -c coinventory ${at} -a ${fishQuote(node.argumentChoices.join(' '))}`);
    } else if (node.takesArguments && node.subcommands.length === 0) {
      lines.push(`complete -c coinventory ${at} -F`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes = commandTree(program);
  if (shell === 'bash') return bashScript(nodes);
  if (shell === 'zsh') return zshScript(nodes);
  return fishScript(nodes);
}

export function registerCompletion(program: Command): void {
  const command = program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for coinventory')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action((shell: Shell) => {
      process.stdout.write(completionScript(program, shell));
    });
  examples(command, [
    'source <(coinventory completion bash)          # this shell; add the line to ~/.bashrc for every shell',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user types, not a template.
    'coinventory completion zsh > "${fpath[1]}/_coinventory"',
    'coinventory completion fish > ~/.config/fish/completions/coinventory.fish',
  ]);
}
