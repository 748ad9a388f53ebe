import { DATABASE_COMMANDS } from './database.js';
import { IMPORTS_COMMANDS } from './imports.js';
import { INVENTORY_COMMANDS } from './inventory.js';
import { KEYS_COMMANDS } from './keys.js';
import { MARKETPLACE_COMMANDS } from './marketplace.js';
import { ORGANIZATIONS_COMMANDS } from './organizations.js';
import { PEOPLE_COMMANDS } from './people.js';
import { SANDBOX_COMMANDS } from './sandbox.js';
import { VALUATIONS_COMMANDS } from './valuations.js';
import { WEBHOOKS_COMMANDS } from './webhooks.js';

/** Every operator command, in the order the help lists them. */
export const COMMANDS = [
  ...DATABASE_COMMANDS,
  ...ORGANIZATIONS_COMMANDS,
  ...PEOPLE_COMMANDS,
  ...KEYS_COMMANDS,
  ...SANDBOX_COMMANDS,
  ...MARKETPLACE_COMMANDS,
  ...IMPORTS_COMMANDS,
  ...INVENTORY_COMMANDS,
  ...VALUATIONS_COMMANDS,
  ...WEBHOOKS_COMMANDS,
] as const;
