import { migrate } from '../../db/migrate.js';
import { seedDemo } from '../../demo/index.js';
import { NO_OPTIONS } from '../options.js';
import { spec } from '../spec.js';

/** The database itself: migrations and the demo organization. */
export const DATABASE_COMMANDS = [
  spec({
    name: 'migrate',
    summary: 'Apply pending database migrations (start does this too).',
    synopsis: '',
    example: 'coinventory-server migrate --json',
    ...NO_OPTIONS,
    run: (sql) => migrate(sql),
    text: (result) =>
      result.applied.length === 0
        ? `Schema is up to date (version ${result.current}).`
        : `${result.applied.map(({ version, name }) => `Applied ${version} ${name}`).join('\n')}\nSchema is at version ${result.current}.`,
  }),
  spec({
    name: 'seed-demo',
    summary: 'Create the demo organization (liberty-coin) and print a read/write key for it once.',
    synopsis: '',
    example: 'coinventory-server seed-demo',
    ...NO_OPTIONS,
    run: (sql) => seedDemo(sql),
    text: (demo) =>
      `Created the demo organization ${demo.slug} (${demo.counts.items} items, ${demo.counts.invoices} invoices).\n` +
      `Its API key (read and write), shown this once:\n\n  ${demo.key.key}\n`,
  }),
] as const;
