import { randomBytes } from 'node:crypto';
import { SCOPES } from '@coinventory/contract';
import { expect } from 'vitest';
import { z } from 'zod';
import { createSql } from '../../src/db/connect.js';
import { PLANS, ROLES } from '../../src/modules/organizations/index.js';
import { runToEnd } from './binary.js';
import { ERROR_BODY } from './errors.js';
import { call } from './http.js';

/**
 * Helpers for the operator command tests: run the built binary's operator commands, check their exact outcome, and
 * parse their `--json` output with strict schemas (exactly the documented fields).
 */

/** The exit codes the operator commands document. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3, conflict: 4, refused: 5, unavailable: 6 } as const;

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `command` is the command's words as one string (`'key create'`); they are passed as separate arguments. */
export type Admin = (command: string, ...args: string[]) => Promise<CommandResult>;

/** Runs `coinventory-server <args>` to its end with the given environment. */
export const adminCli =
  (env: Record<string, string>): Admin =>
  (command, ...args) =>
    runToEnd([...command.split(' '), ...args], env);

const show = (result: CommandResult) =>
  `exit ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;

/** A successful command: exit 0 and nothing on stderr. Returns stdout. */
export function expectOk(result: CommandResult): string {
  expect(result.code, show(result)).toBe(EXIT.ok);
  expect(result.stderr, show(result)).toBe('');
  return result.stdout;
}

/** A failed command: the exit code, nothing on stdout, and stderr containing every fragment given. */
export function expectFailure(result: CommandResult, code: number, ...fragments: string[]): void {
  expect(result.code, show(result)).toBe(code);
  expect(result.stdout, show(result)).toBe('');
  for (const fragment of fragments) expect(result.stderr, show(result)).toContain(fragment);
}

/**
 * A usage error (exit 2) that says, one line each, what is wrong with each option given and what to do:
 * `coinventory-server: invalid --option "value"; must be …`.
 */
export function expectInvalidOptions(result: CommandResult, ...options: string[]): void {
  expectFailure(result, EXIT.usage);
  for (const option of options) {
    expect(result.stderr, show(result)).toMatch(
      new RegExp(`^coinventory-server: invalid --${option}( ".*")?; \\S`, 'm'),
    );
  }
}

/** A usage error (exit 2) of exactly these lines on stderr. */
export function expectUsageLines(result: CommandResult, ...lines: string[]): void {
  expectFailure(result, EXIT.usage);
  expect(result.stderr, show(result)).toBe(lines.map((line) => `${line}\n`).join(''));
}

/** Parses a successful `--json` command's output. */
export function expectJson<T>(result: CommandResult, schema: z.ZodType<T, z.ZodTypeDef, unknown>): T {
  const parsed = schema.safeParse(JSON.parse(expectOk(result)));
  if (!parsed.success) throw new Error(`unexpected JSON output: ${parsed.error.message}\n${show(result)}`);
  return parsed.data;
}

/** A key's value: fixed prefix, 38 base62 characters. */
export const KEY_VALUE = /^cvk_live_[0-9A-Za-z]{38}$/;
/** A test key's value. */
export const TEST_KEY_VALUE = /^cvk_test_[0-9A-Za-z]{38}$/;
const mode = z.enum(['live', 'test']);
const uuid = z.string().uuid();
const isoDate = z.string().datetime();
const plan = z.enum(PLANS);
const role = z.enum(ROLES);
const scopes = z.array(z.enum(SCOPES));

export const OrganizationJson = z
  .object({ id: uuid, name: z.string(), slug: z.string(), plan, createdAt: isoDate })
  .strict();
/** An organization as `org list` shows it: with its usable keys in each mode. */
export const ListedOrganizationJson = OrganizationJson.extend({
  keys: z.object({ live: z.number().int(), test: z.number().int() }).strict(),
}).strict();
export const CreatedOrganizationJson = OrganizationJson.extend({
  defaultWarehouseId: uuid,
  defaultZoneId: uuid,
}).strict();
export const UserJson = z
  .object({ id: uuid, email: z.string(), name: z.string().nullable(), createdAt: isoDate })
  .strict();
export const MemberJson = z.object({ organizationId: uuid, userId: uuid, email: z.string(), role }).strict();
export const RemovedMemberJson = z
  .object({ organizationId: uuid, userId: uuid, email: z.string(), removed: z.literal(true) })
  .strict();
export const CreatedKeyJson = z
  .object({
    organizationId: uuid,
    organizationSlug: z.string(),
    createdBy: z.string(),
    id: uuid,
    key: z.string().regex(KEY_VALUE).or(z.string().regex(TEST_KEY_VALUE)),
    name: z.string(),
    scopes,
    expiresAt: isoDate.nullable(),
    createdAt: isoDate,
    mode,
  })
  .strict();
export const KeyJson = z
  .object({
    id: uuid,
    name: z.string().nullable(),
    mode,
    hint: z.string().length(4),
    scopes,
    createdBy: uuid,
    createdAt: isoDate,
    expiresAt: isoDate.nullable(),
    revokedAt: isoDate.nullable(),
    lastUsedAt: isoDate.nullable(),
  })
  .strict();
export const KeyListJson = z.object({ organization: OrganizationJson, keys: z.array(KeyJson) }).strict();
export const DemoJson = z
  .object({
    organizationId: uuid,
    name: z.string(),
    slug: z.literal('liberty-coin'),
    key: z
      .object({
        id: uuid,
        key: z.string().regex(KEY_VALUE),
        name: z.string().nullable(),
        scopes,
        expiresAt: isoDate.nullable(),
        createdAt: isoDate,
        mode: z.literal('live'),
      })
      .strict(),
    ownerEmail: z.string(),
    counts: z
      .object({
        items: z.number().int(),
        valuations: z.number().int(),
        consignments: z.number().int(),
        invoices: z.number().int(),
      })
      .strict(),
  })
  .strict();

export interface ProvisionedOrganization {
  organizationId: string;
  slug: string;
  ownerId: string;
  ownerEmail: string;
  keyId: string;
  key: string;
}

/** An organization with an owner and one read/write key, made only with operator commands. */
export async function provisionOrganization(
  admin: Admin,
  options: { slug: string; plan?: 'business' | 'enterprise' },
): Promise<ProvisionedOrganization> {
  const org = expectJson(
    await admin(
      'org create',
      '--name',
      `Org ${options.slug}`,
      '--slug',
      options.slug,
      '--plan',
      options.plan ?? 'business',
      '--json',
    ),
    CreatedOrganizationJson,
  );
  const ownerEmail = `owner@${options.slug}.example`;
  const owner = expectJson(await admin('user create', '--email', ownerEmail, '--json'), UserJson);
  expectOk(await admin('member add', '--org', options.slug, '--user', ownerEmail, '--role', 'owner'));
  const key = await createKeyJson(admin, {
    org: options.slug,
    creator: ownerEmail,
    name: 'sync',
    scopes: 'read,write',
  });
  return { organizationId: org.id, slug: org.slug, ownerId: owner.id, ownerEmail, keyId: key.id, key: key.key };
}

/** `key create --json`: a key of `org` made by `creator`, with `scopes` comma-separated. */
export async function createKeyJson(
  admin: Admin,
  key: { org: string; creator: string; name: string; scopes: string },
): Promise<z.infer<typeof CreatedKeyJson>> {
  const args = ['--org', key.org, '--user', key.creator, '--name', key.name, '--scopes', key.scopes, '--json'];
  return expectJson(await admin('key create', ...args), CreatedKeyJson);
}

/**
 * A second organization with a taken slug, a second user with a taken email (in any case), and a second membership
 * of one user: each refused with exit 4, naming what is taken. `member.shownAs` is how the message names the user.
 */
export async function expectDuplicatesRefused(
  admin: Admin,
  taken: { slug: string; email: string; member: { org: string; user: string; role: string; shownAs: string } },
): Promise<void> {
  const { slug, email, member } = taken;
  expectFailure(
    await admin('org create', '--name', 'Again', '--slug', slug, '--plan', 'business'),
    EXIT.conflict,
    `An organization with the slug "${slug}" already exists.`,
  );
  expectFailure(
    await admin('user create', '--email', email),
    EXIT.conflict,
    `A user with the email "${email}" already exists.`,
  );
  expectFailure(
    await admin('member add', '--org', member.org, '--user', member.user, '--role', member.role),
    EXIT.conflict,
    `${member.shownAs} is already a member of ${member.org}; use "member set-role" to change their role.`,
  );
}

/** GET /me with a key: its status, and how many milliseconds after `since` the answer arrived. */
export async function me(baseUrl: string, key: string, since = Date.now()) {
  const response = await call(baseUrl, 'GET', '/me', { key });
  return { status: response.status, body: response.body, afterMs: Date.now() - since };
}

/** The bound the README documents for a key, plan or role change to reach the API. */
export const PROPAGATION_BOUND_MS = 5_000;

/**
 * Runs an operator command that must change what a key may do, then sends the very next request with that key,
 * and checks both its status and that it came within the documented bound of the command's return.
 */
export async function expectNextRequest(
  baseUrl: string,
  key: string,
  command: () => Promise<CommandResult>,
  status: number,
): Promise<{ stdout: string; afterMs: number }> {
  const stdout = expectOk(await command());
  const returned = Date.now();
  const next = await me(baseUrl, key, returned);
  expect(next.status, JSON.stringify(next.body)).toBe(status);
  if (status === 401) expect(next.body).toEqual(ERROR_BODY.UNAUTHORIZED);
  if (status === 403) expect(next.body).toEqual(ERROR_BODY.FORBIDDEN);
  expect(next.afterMs).toBeLessThan(PROPAGATION_BOUND_MS);
  return { stdout, afterMs: next.afterMs };
}

/** A fresh, empty database on the test cluster, and how to drop it. */
export async function createClusterDatabase(clusterUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `admin_${randomBytes(6).toString('hex')}`;
  const cluster = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  await cluster`CREATE DATABASE ${cluster(name)}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await cluster`DROP DATABASE IF EXISTS ${cluster(name)} WITH (FORCE)`;
      await cluster.end();
    },
  };
}
