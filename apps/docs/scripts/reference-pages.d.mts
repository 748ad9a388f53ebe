// Types of reference-pages.mjs for the site's config and the tests.
export interface CliCommand {
  path: string[];
  help: string;
}
export function cliPageLink(name: string): string;
export function renderCliPages(commands: CliCommand[]): {
  index: string;
  pages: Array<{ name: string; markdown: string }>;
};
export function operatorCommands(helpText: string): string[];
export function renderOperatorReference(help: (args: string[]) => string): string;
