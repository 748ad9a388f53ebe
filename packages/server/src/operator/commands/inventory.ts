import { checkInventory } from '../../modules/reservations/index.js';
import { ORG_ONLY } from '../options.js';
import { spec } from '../spec.js';

/** The inventory's invariants, checked item by item. */
export const INVENTORY_COMMANDS = [
  spec({
    name: 'check',
    summary:
      "Check an organization's inventory: no quantity below 0, reserved equal to its held reservations, each quantity the sum of its movements; exits 5 naming each item that breaks one.",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server check --org liberty-coin',
    ...ORG_ONLY,
    run: (sql, input) => checkInventory(sql, input.org),
    text: (checked) => `All ${checked.items} items of ${checked.organization} keep the inventory invariants.`,
  }),
];
