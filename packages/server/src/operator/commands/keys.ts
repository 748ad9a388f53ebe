import { z } from 'zod';
import * as access from '../../modules/access/index.js';
import { ensureSandbox } from '../../modules/sandbox/index.js';
import { date, table } from '../format.js';
import {
  expiresAt,
  MODE_CHOICES,
  mode,
  name,
  ORG_ONLY,
  org,
  SCOPE_CHOICES,
  scopes,
  string,
  user,
  uuid,
} from '../options.js';
import { spec } from '../spec.js';

/** API keys: created by an owner or admin, listed without their values, revoked. */
export const KEYS_COMMANDS = [
  spec({
    name: 'key create',
    summary: 'Create an API key as an owner or admin; its value is printed once and never stored.',
    synopsis: `--org <id|slug> --user <id|email> --name <name> --scopes ${SCOPE_CHOICES} [--expires-at <date-time>] [--mode ${MODE_CHOICES}]`,
    example:
      'coinventory-server key create --org liberty-coins --user dana@liberty-coins.example --name "Website sync" --scopes read,write',
    // --user names the person, as in the member commands; --creator was its name before.
    options: { org: string, user: string, name: string, scopes: string, 'expires-at': string, mode: string },
    aliases: { creator: 'user' },
    input: z
      .object({
        org,
        user,
        name: name(200),
        scopes,
        'expires-at': expiresAt,
        mode,
      })
      .transform(({ 'expires-at': expires, user: creator, ...rest }) => ({ ...rest, creator, expiresAt: expires })),
    // A test key's sandbox is made with the key, the first time, in the key's transaction.
    run: (sql, input) =>
      sql.begin(async (tx) => {
        const { organization, ...key } = await access.createKey(tx, input);
        if (key.mode === 'test') await ensureSandbox(tx, organization);
        return key;
      }),
    text: (key) =>
      `Created ${key.mode === 'test' ? 'test ' : ''}key ${key.id} "${key.name}" (${key.scopes.join(', ')}) for ` +
      `${key.organizationSlug}${key.mode === 'test' ? "'s sandbox" : ''}` +
      `${key.expiresAt ? `, expiring ${key.expiresAt.toISOString()}` : ''}.\n` +
      `Its value is shown this once; store it now:\n\n  ${key.key}\n`,
  }),
  spec({
    name: 'key list',
    summary: "List an organization's keys (never their values).",
    synopsis: '--org <id|slug>',
    example: 'coinventory-server key list --org liberty-coins',
    ...ORG_ONLY,
    run: (sql, input) => access.listKeys(sql, input),
    text: ({ organization, keys }) =>
      keys.length === 0
        ? `${organization.slug} has no keys.`
        : table([
            ['ID', 'MODE', 'NAME', 'ENDS', 'SCOPES', 'CREATED', 'EXPIRES', 'REVOKED', 'LAST USED'],
            ...keys.map((k) => [
              k.id,
              k.mode,
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
    input: z.object({ org, key: uuid }),
    run: (sql, input) => access.revokeKey(sql, input),
    text: (key) => `Revoked key ${key.id}${key.name ? ` "${key.name}"` : ''} at ${date(key.revokedAt)}.`,
  }),
] as const;
