import type { Warehouse, Zone } from '@coinventory/sdk';
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { idColumn } from '../output/columns.js';
import { csvColumns } from '../output/csv.js';
import { NONE } from '../output/format.js';
import type { DetailView } from '../output/render.js';
import { type Column, renderDetails, renderSection } from '../output/table.js';
import { resourceCommands } from './resource.js';

// Warehouses with their zones: a list row names the zones in order; `get` shows each zone's id, which items take as
// --zone-id.

const warehouseView: DetailView<Warehouse> = {
  noun: ['warehouse', 'warehouses'],
  columns: [
    idColumn(),
    { header: 'NAME', value: (w) => w.name },
    { header: 'DEFAULT', value: (w) => (w.isDefault ? 'yes' : 'no') },
    { header: 'ZONES', value: (w) => String(w.zones.length), align: 'right' },
    { header: 'ZONE NAMES', value: (w) => w.zones.map((zone) => zone.name).join(', ') || NONE, shrink: 'first' },
  ],
  // Zones are an array: one column of JSON, as every list's arrays are.
  csv: csvColumns<Warehouse>({ id: true, name: true, isDefault: true, zones: true }),
  details: warehouseDetails,
};

const ZONE_COLUMNS: readonly Column<Zone>[] = [idColumn(), { header: 'NAME', value: (z) => z.name, shrink: 'first' }];

function warehouseDetails(warehouse: Warehouse, io: IO): string {
  const fields = renderDetails(
    [
      ['ID', warehouse.id],
      ['Name', warehouse.name],
      ['Default', warehouse.isDefault ? 'yes (items created without --warehouse-id go here)' : 'no'],
    ],
    io.style,
  );
  return fields + renderSection('Zones', ZONE_COLUMNS, warehouse.zones, { style: io.style, maxWidth: io.maxWidth });
}

export function registerWarehouses(program: Command): void {
  resourceCommands(program, {
    name: 'warehouses',
    description: "list and show the organization's warehouses and their zones (read-only)",
    view: warehouseView,
    list: {
      description: 'list warehouses with their zones in order, the default one first',
      filters: {},
      help: "\nZone ids (for --zone-id) are in 'coinventory warehouses get <id>' and in --json.",
      examples: [
        'coinventory warehouses list',
        "coinventory warehouses list --json | jq -r '.items[] | .name as $w | .zones[] | [$w, .name, .id] | @tsv'",
      ],
    },
    get: {
      description: 'show one warehouse with the id of each zone',
      examples: ['coinventory warehouses get <id>', 'coinventory warehouses get <id> --json | jq .zones'],
    },
  });
}
