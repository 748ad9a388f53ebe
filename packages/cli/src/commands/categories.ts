import type { Category } from '@coinventory/sdk';
import type { Command } from 'commander';
import { idColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import type { DetailView } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { resourceCommands } from './resource.js';

const categoryView: DetailView<Category> = {
  noun: ['category', 'categories'],
  columns: [idColumn(), { header: 'NAME', value: (c) => c.name, shrink: 'first' }],
  csv: csvColumns<Category>({ id: true, name: true }),
  details: (category, io) =>
    renderDetails(
      [
        ['ID', category.id],
        ['Name', category.name],
      ],
      io.style,
    ),
};

export function registerCategories(program: Command): void {
  resourceCommands(program, {
    name: 'categories',
    description: "list and show the organization's item categories (read-only): the ids --category-id takes",
    view: categoryView,
    list: {
      description: 'list categories, by name',
      filters: {},
      examples: [
        'coinventory categories list',
        'coinventory categories list --all --output csv > categories.csv',
        "coinventory categories list --json | jq -r '.items[] | [.id, .name] | @tsv'",
        'coinventory items list --category-id <id>',
      ],
    },
  });
}
