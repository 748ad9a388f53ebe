import { z } from 'zod';
import { usableKeyCounts } from '../../modules/access/index.js';
import * as organizations from '../../modules/organizations/index.js';
import { createDefaultWarehouse } from '../../modules/warehouses/index.js';
import { table } from '../format.js';
import { NO_OPTIONS, name, org, PLAN_CHOICES, plan, slug, string } from '../options.js';
import { spec } from '../spec.js';

/** Organizations and their plans. */
export const ORGANIZATIONS_COMMANDS = [
  spec({
    name: 'org create',
    summary: 'Create an organization with its default warehouse and zone.',
    synopsis: `--name <name> --slug <slug> --plan ${PLAN_CHOICES}`,
    example: 'coinventory-server org create --name "Liberty Coins" --slug liberty-coins --plan business',
    options: { name: string, slug: string, plan: string },
    input: z.object({ name: name(200), slug, plan }),
    // The organization and its default warehouse and zone, two modules' rows, in one transaction.
    run: (sql, input) =>
      sql.begin(async (tx) => {
        const organization = await organizations.createOrganization(tx, input);
        return { ...organization, ...(await createDefaultWarehouse(tx, organization.id)) };
      }),
    text: (org) => `Created organization ${org.slug} (${org.id}) on the ${org.plan} plan.`,
  }),
  spec({
    name: 'org list',
    summary: 'List organizations, with how many usable live and test keys each has.',
    synopsis: '',
    example: 'coinventory-server org list --json',
    ...NO_OPTIONS,
    // Each workspace with its usable keys (neither revoked nor expired) in both modes.
    run: async (sql) => {
      const [orgs, keys] = await Promise.all([organizations.listOrganizations(sql), usableKeyCounts(sql)]);
      return orgs.map((o) => ({ ...o, keys: keys.get(o.id) ?? { live: 0, test: 0 } }));
    },
    text: (orgs) =>
      orgs.length === 0
        ? 'No organizations.'
        : table([
            ['ID', 'SLUG', 'PLAN', 'LIVE KEYS', 'TEST KEYS', 'NAME'],
            ...orgs.map((o) => [o.id, o.slug, o.plan, String(o.keys.live), String(o.keys.test), o.name]),
          ]),
  }),
  spec({
    name: 'org set-plan',
    summary: "Change an organization's plan (only business and enterprise include API access).",
    synopsis: `--org <id|slug> --plan ${PLAN_CHOICES}`,
    example: 'coinventory-server org set-plan --org liberty-coins --plan starter',
    options: { org: string, plan: string },
    input: z.object({ org, plan }),
    run: (sql, input) => organizations.setPlan(sql, input),
    text: (org) => `${org.slug} is now on the ${org.plan} plan.`,
  }),
] as const;
