import { type ParseArgsConfig, parseArgs } from 'node:util';
import { SCOPES, type Scope } from '@coinventory/contract';
import { z } from 'zod';
import { PLANS, ROLES } from '../modules/workspaces/store.js';
import { migrate } from '../db/migrate.js';
import type { Sql } from '../db/types.js';
import { looksLikeUuid } from '../ids.js';
import * as marketplace from '../modules/marketplace/operator.js';
import * as provisioning from '../modules/workspaces/provisioning.js';

/**
 * The operator's commands for what a workspace's settings area does: organizations, people and keys. They run
 * the same way against DATABASE_URL, an idle embedded database, or a running server's embedded database
 * (through its admin socket); see main.ts.
 */

/** Exit codes of every command, documented in the README and the help. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, conflict: 4, refused: 5 } as const;

export interface CommandOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

type Options = NonNullable<ParseArgsConfig['options']>;

interface CommandSpec<Input, Result> {
  /** One or two words, e.g. `key create`. */
  name: string;
  summary: string;
  /** The options line of the usage text. */
  synopsis: string;
  example: string;
  options: Options;
  input: z.ZodType<Input, z.ZodTypeDef, unknown>;
  run(sql: Sql, input: Input): Promise<Result>;
  text(result: Result): string;
}

const string = { type: 'string' } as const;
const slug = z
  .string({ required_error: 'is required' })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits in words joined by single hyphens')
  .max(63, 'must be at most 63 characters')
  // --org takes an id or a slug; a slug shaped like an id could never be looked up by it.
  .refine((value) => !looksLikeUuid(value), 'must not have the shape of a UUID (it would be read as an id)');
const name = (max: number) => z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(max);
const ref = (what: string) => z.string({ required_error: `is required (${what})` }).min(1, 'must not be empty');
const email = z.string({ required_error: 'is required' }).email('must be an email address').max(320);
const plan = z.enum(PLANS, { errorMap: () => ({ message: `must be one of ${PLANS.join(', ')}` }) });
const role = z.enum(ROLES, { errorMap: () => ({ message: `must be one of ${ROLES.join(', ')}` }) });
const scopes = z
  .string({ required_error: `is required (${SCOPES.join(',')})` })
  .transform((value) => value.split(',').map((scope) => scope.trim()))
  .pipe(
    z.array(z.enum(SCOPES, { errorMap: () => ({ message: `each scope must be one of ${SCOPES.join(', ')}` }) })).min(1),
  )
  .transform((list) => [...new Set(list)] as Scope[]);
const expiresAt = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2027-01-01T00:00:00Z' })
  .transform((value) => new Date(value))
  .optional()
  .transform((value) => value ?? null);
const uuid = z.string({ required_error: 'is required' }).uuid('must be a key id (a UUID)');

const date = (value: Date | null) => (value === null ? '—' : value.toISOString());
const withArticle = (role: string) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const spec = <Input, Result>(command: CommandSpec<Input, Result>) => command;

export const COMMANDS = [
  spec({
    name: 'migrate',
    summary: 'Apply pending database migrations (start does this too).',
    synopsis: '',
    example: 'coinventory-server migrate --json',
    options: {},
    input: z.object({}),
    run: (sql) => migrate(sql),
    text: (result) =>
      result.applied.length === 0
        ? `Schema is up to date (version ${result.current}).`
        : `${result.applied.map(({ version, name }) => `Applied ${version} ${name}`).join('\n')}\nSchema is at version ${result.current}.`,
  }),
  spec({
    name: 'seed-demo',
    summary: 'Create the demo workspace (liberty-coin) and print a read/write key for it once.',
    synopsis: '',
    example: 'coinventory-server seed-demo',
    options: {},
    input: z.object({}),
    run: (sql) => provisioning.seedDemo(sql),
    text: (demo) =>
      `Created the demo workspace ${demo.slug} (${demo.counts.items} items, ${demo.counts.invoices} invoices).\n` +
      `Its API key (read and write), shown this once:\n\n  ${demo.key.key}\n`,
  }),
  spec({
    name: 'org create',
    summary: 'Create an organization with its default warehouse and zone.',
    synopsis: '--name <name> --slug <slug> --plan <free|starter|business|enterprise>',
    example: 'coinventory-server org create --name "Liberty Coins" --slug liberty-coins --plan business',
    options: { name: string, slug: string, plan: string },
    input: z.object({ name: name(200), slug, plan }),
    run: (sql, input) => provisioning.createOrganization(sql, input),
    text: (org) => `Created organization ${org.slug} (${org.id}) on the ${org.plan} plan.`,
  }),
  spec({
    name: 'org list',
    summary: 'List organizations.',
    synopsis: '',
    example: 'coinventory-server org list --json',
    options: {},
    input: z.object({}),
    run: (sql) => provisioning.listOrganizations(sql),
    text: (orgs) =>
      orgs.length === 0
        ? 'No organizations.'
        : table([['ID', 'SLUG', 'PLAN', 'NAME'], ...orgs.map((o) => [o.id, o.slug, o.plan, o.name])]),
  }),
  spec({
    name: 'org set-plan',
    summary: "Change an organization's plan (only business and enterprise include API access).",
    synopsis: '--org <id|slug> --plan <free|starter|business|enterprise>',
    example: 'coinventory-server org set-plan --org liberty-coins --plan starter',
    options: { org: string, plan: string },
    input: z.object({ org: ref('an organization id or slug'), plan }),
    run: (sql, input) => provisioning.setPlan(sql, input),
    text: (org) => `${org.slug} is now on the ${org.plan} plan.`,
  }),
  spec({
    name: 'user create',
    summary: 'Create a user (a person who can be a member of organizations).',
    synopsis: '--email <email> [--name <name>]',
    example: 'coinventory-server user create --email dana@liberty-coins.example --name "Dana Whitfield"',
    options: { email: string, name: string },
    input: z.object({
      email,
      name: name(200)
        .optional()
        .transform((value) => value ?? null),
    }),
    run: (sql, input) => provisioning.createUser(sql, input),
    text: (user) => `Created user ${user.email} (${user.id}).`,
  }),
  spec({
    name: 'member add',
    summary: 'Make a user a member of an organization with a role.',
    synopsis: '--org <id|slug> --user <id|email> --role <owner|admin|member>',
    example: 'coinventory-server member add --org liberty-coins --user dana@liberty-coins.example --role owner',
    options: { org: string, user: string, role: string },
    input: z.object({ org: ref('an organization id or slug'), user: ref('a user id or email'), role }),
    run: (sql, input) => provisioning.addMember(sql, input),
    text: (m) => `${m.email} is now ${withArticle(m.role)} of the organization.`,
  }),
  spec({
    name: 'member set-role',
    summary: "Change a member's role. Keys created by someone who is no longer an owner or admin stop working.",
    synopsis: '--org <id|slug> --user <id|email> --role <owner|admin|member>',
    example: 'coinventory-server member set-role --org liberty-coins --user dana@liberty-coins.example --role member',
    options: { org: string, user: string, role: string },
    input: z.object({ org: ref('an organization id or slug'), user: ref('a user id or email'), role }),
    run: (sql, input) => provisioning.setRole(sql, input),
    text: (m) => `${m.email} is now ${withArticle(m.role)} of the organization.`,
  }),
  spec({
    name: 'member remove',
    summary: 'Remove a member from an organization; the keys they created stop working.',
    synopsis: '--org <id|slug> --user <id|email>',
    example: 'coinventory-server member remove --org liberty-coins --user dana@liberty-coins.example',
    options: { org: string, user: string },
    input: z.object({ org: ref('an organization id or slug'), user: ref('a user id or email') }),
    run: (sql, input) => provisioning.removeMember(sql, input),
    text: (m) => `${m.email} is no longer a member of the organization.`,
  }),
  spec({
    name: 'key create',
    summary: 'Create an API key as an owner or admin; its value is printed once and never stored.',
    synopsis:
      '--org <id|slug> --creator <user id|email> --name <name> --scopes <read[,write]> [--expires-at <date-time>]',
    example:
      'coinventory-server key create --org liberty-coins --creator dana@liberty-coins.example --name "Website sync" --scopes read,write',
    options: { org: string, creator: string, name: string, scopes: string, 'expires-at': string },
    input: z
      .object({
        org: ref('an organization id or slug'),
        creator: ref('a user id or email'),
        name: name(200),
        scopes,
        'expires-at': expiresAt,
      })
      .transform(({ 'expires-at': expires, ...rest }) => ({ ...rest, expiresAt: expires })),
    run: (sql, input) => provisioning.createKey(sql, input),
    text: (key) =>
      `Created key ${key.id} "${key.name}" (${key.scopes.join(', ')}) for ${key.organizationSlug}` +
      `${key.expiresAt ? `, expiring ${key.expiresAt.toISOString()}` : ''}.\n` +
      `Its value is shown this once; store it now:\n\n  ${key.key}\n`,
  }),
  spec({
    name: 'key list',
    summary: "List an organization's keys (never their values).",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server key list --org liberty-coins',
    options: { org: string },
    input: z.object({ org: ref('an organization id or slug') }),
    run: (sql, input) => provisioning.listKeys(sql, input),
    text: ({ organization, keys }) =>
      keys.length === 0
        ? `${organization.slug} has no keys.`
        : table([
            ['ID', 'NAME', 'ENDS', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'],
            ...keys.map((k) => [
              k.id,
              k.name ?? '—',
              `…${k.hint}`,
              k.scopes.join(','),
              date(k.createdAt),
              date(k.expiresAt),
              date(k.revokedAt),
              date(k.lastUsedAt),
            ]),
          ]),
  }),
  spec({
    name: 'key revoke',
    summary: 'Revoke a key; requests with it are refused from then on.',
    synopsis: '--org <id|slug> --key <key id>',
    example: 'coinventory-server key revoke --org liberty-coins --key 3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6c',
    options: { org: string, key: string },
    input: z.object({ org: ref('an organization id or slug'), key: uuid }),
    run: (sql, input) => provisioning.revokeKey(sql, input),
    text: (key) => `Revoked key ${key.id}${key.name ? ` "${key.name}"` : ''} at ${date(key.revokedAt)}.`,
  }),
  spec({
    name: 'listing link',
    summary: 'Link an item to its listing on the related marketplace; quantity changes and deletion will sync to it.',
    synopsis: '--org <id|slug> --item <id|sku> --listing-id <marketplace listing id> [--url <listing url>]',
    example: 'coinventory-server listing link --org liberty-coin --item MOR-1881-S-65 --listing-id mkt-100234',
    options: { org: string, item: string, 'listing-id': string, url: string },
    input: z
      .object({
        org: ref('an organization id or slug'),
        item: ref('an item id or SKU'),
        'listing-id': name(200),
        url: z.string().url('must be a URL').optional(),
      })
      .transform((v) => ({ org: v.org, item: v.item, listingId: v['listing-id'], url: v.url ?? null })),
    run: (sql, input) => marketplace.linkListing(sql, input),
    text: (l) => `Linked ${l.sku} to marketplace listing ${l.marketplaceListingId}.`,
  }),
  spec({
    name: 'listing unlink',
    summary: 'Unlink a listing; the marketplace is not told, and its sync jobs, pending and past, are deleted.',
    synopsis: '--org <id|slug> --listing-id <marketplace listing id>',
    example: 'coinventory-server listing unlink --org liberty-coin --listing-id mkt-100234',
    options: { org: string, 'listing-id': string },
    input: z
      .object({ org: ref('an organization id or slug'), 'listing-id': name(200) })
      .transform((v) => ({ org: v.org, listingId: v['listing-id'] })),
    run: (sql, input) => marketplace.unlinkListing(sql, input),
    text: (l) => `Unlinked marketplace listing ${l.marketplaceListingId}.`,
  }),
  spec({
    name: 'listing list',
    summary: "List an organization's marketplace listings and what was last synced to them.",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server listing list --org liberty-coin',
    options: { org: string },
    input: z.object({ org: ref('an organization id or slug') }),
    run: (sql, input) => marketplace.listListings(sql, input),
    text: (listings) =>
      listings.length === 0
        ? 'No listings.'
        : table([
            ['LISTING', 'ITEM', 'STATUS', 'SYNCED QTY', 'SYNCED AT'],
            ...listings.map((l) => [
              l.marketplaceListingId,
              l.sku ?? '(deleted item)',
              l.status,
              l.lastSyncedQuantity === null ? '—' : String(l.lastSyncedQuantity),
              date(l.lastSyncedAt),
            ]),
          ]),
  }),
  spec({
    name: 'sync list',
    summary: 'List marketplace sync jobs, newest first, with their state, attempts and last error.',
    synopsis: '--org <id|slug> [--state pending|done|dead|superseded] [--limit <1-1000>]',
    example: 'coinventory-server sync list --org liberty-coin --state dead',
    options: { org: string, state: string, limit: string },
    input: z.object({
      org: ref('an organization id or slug'),
      state: z
        .enum(['pending', 'done', 'dead', 'superseded'], {
          errorMap: () => ({ message: 'must be one of pending, done, dead, superseded' }),
        })
        .optional(),
      limit: z
        .string()
        .regex(/^[0-9]+$/, 'must be a whole number')
        .transform(Number)
        .pipe(z.number().int().min(1).max(1000))
        .optional()
        .transform((value) => value ?? 50),
    }),
    run: (sql, input) => marketplace.listJobs(sql, input),
    text: (jobs) =>
      jobs.length === 0
        ? 'No sync jobs.'
        : table([
            ['JOB', 'LISTING', 'KIND', 'QTY', 'SEQ', 'STATE', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ERROR'],
            ...jobs.map((j) => [
              j.id,
              j.marketplaceListingId,
              j.kind,
              j.quantity === null ? '—' : String(j.quantity),
              String(j.sequence),
              j.state,
              String(j.attempts),
              j.state === 'pending' ? date(j.nextAttemptAt) : '—',
              j.lastError ?? '',
            ]),
          ]),
  }),
  spec({
    name: 'sync retry',
    summary: 'Put a dead sync job back in line with a fresh set of attempts.',
    synopsis: '--org <id|slug> --job <job id>',
    example: 'coinventory-server sync retry --org liberty-coin --job 3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6c',
    options: { org: string, job: string },
    input: z.object({
      org: ref('an organization id or slug'),
      job: z.string({ required_error: 'is required' }).uuid('must be a job id (a UUID)'),
    }),
    run: (sql, input) => marketplace.retryJob(sql, input),
    text: (job) => `Sync job ${job.id} is pending again; the worker will deliver it shortly.`,
  }),
] as const;

export type AdminCommand = (typeof COMMANDS)[number];

/** The command an argv names (one or two words), and the arguments after them. */
export function findCommand(argv: readonly string[]): { command: AdminCommand; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, args: argv.slice(words) };
  }
  return null;
}

export const isAdminCommand = (argv: readonly string[]) => findCommand(argv) !== null;

export function commandHelp(command: AdminCommand): string {
  return [
    `Usage: coinventory-server ${command.name} ${command.synopsis} [--json]`.replace(/ +/g, ' '),
    '',
    command.summary,
    '',
    'Example:',
    `  ${command.example}`,
    '',
    'Options:',
    '  --json      Print the result as JSON.',
    '  -h, --help  Show this help.',
  ].join('\n');
}

const ok = (stdout: string): CommandOutput => ({ exitCode: EXIT.ok, stdout, stderr: '' });
const fail = (exitCode: number, stderr: string): CommandOutput => ({ exitCode, stdout: '', stderr });
const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

export type PreparedCommand =
  /** Nothing to run: help, or a usage error. */
  { kind: 'done'; output: CommandOutput } | { kind: 'run'; name: string; run(sql: Sql): Promise<CommandOutput> };

/** Parses and validates an admin command's arguments, before any database is opened. */
export function prepareAdminCommand(argv: readonly string[]): PreparedCommand {
  const done = (output: CommandOutput): PreparedCommand => ({ kind: 'done', output });
  const found = findCommand(argv);
  if (!found) return done(fail(EXIT.usage, `Unknown command "${argv.join(' ')}".\n`));
  const { command, args } = found;
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return done(
      fail(EXIT.usage, `${error instanceof Error ? error.message : String(error)}\n\n${commandHelp(command)}\n`),
    );
  }
  if (values.help) return done(ok(`${commandHelp(command)}\n`));
  if (positionals.length > 0) {
    return done(fail(EXIT.usage, `Unexpected argument "${positionals[0]}".\n\n${commandHelp(command)}\n`));
  }
  const { json, help: _help, ...given } = values;
  const parsed = (command.input as z.ZodType<unknown, z.ZodTypeDef, unknown>).safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  --${String(issue.path[0] ?? '')}: ${issue.message}`);
    return done(fail(EXIT.usage, `Invalid options:\n${problems.join('\n')}\n\n${commandHelp(command)}\n`));
  }
  return {
    kind: 'run',
    name: command.name,
    run: async (sql) => {
      try {
        const result: unknown = await (command.run as (sql: Sql, input: unknown) => Promise<unknown>)(sql, parsed.data);
        if (json) return ok(`${JSON.stringify(result, null, 2)}\n`);
        return ok(line((command.text as (result: unknown) => string)(result)));
      } catch (error) {
        if (error instanceof provisioning.ProvisioningError) {
          const code = { not_found: EXIT.notFound, conflict: EXIT.conflict, refused: EXIT.refused }[error.kind];
          return fail(code, line(error.message));
        }
        throw error;
      }
    },
  };
}

/** Parses, validates and runs one admin command. The operator's mistakes become output, never exceptions. */
export async function executeAdminCommand(argv: readonly string[], sql: Sql): Promise<CommandOutput> {
  const prepared = prepareAdminCommand(argv);
  return prepared.kind === 'done' ? prepared.output : prepared.run(sql);
}
