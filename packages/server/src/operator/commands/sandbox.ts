import { z } from 'zod';
import { seedDemoSandbox } from '../../demo/index.js';
import { SANDBOX_SOURCES } from '../../modules/organizations/index.js';
import * as sandboxes from '../../modules/sandbox/index.js';
import { date, table } from '../format.js';
import { ORG_ONLY, oneOf, org, string } from '../options.js';
import { spec } from '../spec.js';

const from = z
  .enum(SANDBOX_SOURCES, { errorMap: () => ({ message: `must be one of ${SANDBOX_SOURCES.join(', ')}` }) })
  .optional()
  .transform((value) => value ?? 'empty');

/** How the text output names each kind of record. */
const LABELS: Record<sandboxes.SandboxRecord, string> = {
  warehouses: 'warehouses',
  zones: 'zones',
  categories: 'categories',
  consignors: 'consignors',
  consignments: 'consignments',
  items: 'items',
  itemImages: 'item images',
  valuations: 'valuations',
  valuationComps: 'valuation comps',
  customers: 'customers',
  invoices: 'invoices',
  invoiceLines: 'invoice lines',
  invoicePayments: 'invoice payments',
  webhookEndpoints: 'webhook endpoints',
};

const countsTable = (counts: Partial<Record<sandboxes.SandboxRecord, number>>) =>
  table([
    ['RECORDS', 'COUNT'],
    ...sandboxes.SANDBOX_RECORDS.flatMap((kind) => {
      const count = counts[kind];
      return count === undefined ? [] : [[LABELS[kind], String(count)]];
    }),
  ]);

/** Test mode's sandboxes: made again from empty, the demo or the live workspace, and described. */
export const SANDBOX_COMMANDS = [
  spec({
    name: 'sandbox reset',
    summary:
      "Make an organization's sandbox (what its test keys reach) again, empty (the default), from the demo shop or as a copy of its live data, in one transaction; its webhook endpoints stay.",
    synopsis: `--org <id|slug> [--from <${oneOf(SANDBOX_SOURCES)}>]`,
    example: 'coinventory-server sandbox reset --org liberty-coin --from live',
    options: { org: string, from: string },
    input: z.object({ org, from }),
    run: (sql, input) => sandboxes.resetSandbox(sql, { ...input, demo: seedDemoSandbox }),
    text: (reset) =>
      `Reset the sandbox of ${reset.organization.slug} from ${reset.sandbox.source} in ` +
      `${(reset.elapsedMs / 1000).toFixed(2)} s: sandbox ${reset.sandbox.id}` +
      `${reset.replaced === null ? '' : `, replacing ${reset.replaced}`}. Test keys reach it now; ` +
      `its changes feed starts afresh.\n${countsTable(reset.counts)}`,
  }),
  spec({
    name: 'sandbox status',
    summary:
      "Show an organization's sandbox: what it was made from, when it was last reset, and how many records it holds.",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server sandbox status --org liberty-coin',
    ...ORG_ONLY,
    run: (sql, input) => sandboxes.sandboxStatus(sql, input),
    text: ({ organization, sandbox }) =>
      sandbox === null
        ? `${organization.slug} has no sandbox yet: its first test key makes one (key create --mode test), or sandbox reset.`
        : `Sandbox of ${organization.slug}: ${sandbox.id}, from ${sandbox.source}, last reset ` +
          `${date(sandbox.lastResetAt)}.\n${countsTable(sandbox.counts)}`,
  }),
] as const;
