import type { Sql } from '../db/types.js';
import { ProvisioningError } from '../errors.js';
import { findOrganization } from '../modules/organizations/index.js';
import { DEMO_SLUG } from './catalog/shop.js';
import { type DemoOrganization, seedDemoOrganization } from './seed.js';

export {
  DEMO_KEY_FILE,
  demoKeyPath,
  forgetDemoKey,
  keepDemoKey,
  keptDemoKey,
  unusedDemoKeySlug,
} from './key-file.js';
export {
  DEMO_ANCHOR,
  DEMO_SLUG,
  type DemoOrganization,
  type SeedOptions,
  seedDemoOrganization,
  seedDemoSandbox,
} from './seed.js';

/**
 * The operator's `seed-demo`: the demo organization on a database that has none yet. An existing one is a conflict
 * the operator reads, not the unique violation a second seed would end in.
 */
export async function seedDemo(sql: Sql): Promise<DemoOrganization> {
  const existing = await findOrganization(sql, DEMO_SLUG);
  if (existing) throw new ProvisioningError('conflict', `The demo organization "${DEMO_SLUG}" already exists.`);
  return seedDemoOrganization(sql);
}
