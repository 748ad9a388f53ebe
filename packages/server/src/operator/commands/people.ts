import { z } from 'zod';
import * as organizations from '../../modules/organizations/index.js';
import { withArticle } from '../format.js';
import { email, name, org, ROLE_CHOICES, role, string, user } from '../options.js';
import { spec } from '../spec.js';

/** People and their roles in organizations. */

/** What member add and member set-role print. */
const roleText = (m: { email: string; role: string }) =>
  `${m.email} is now ${withArticle(m.role)} of the organization.`;

/** A user's role in an organization: what member add and member set-role take. */
const MEMBERSHIP = { options: { org: string, user: string, role: string }, input: z.object({ org, user, role }) };
export const PEOPLE_COMMANDS = [
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
    run: (sql, input) => organizations.createUser(sql, input),
    text: (user) => `Created user ${user.email} (${user.id}).`,
  }),
  spec({
    name: 'member add',
    summary: 'Make a user a member of an organization with a role.',
    synopsis: `--org <id|slug> --user <id|email> --role ${ROLE_CHOICES}`,
    example: 'coinventory-server member add --org liberty-coins --user dana@liberty-coins.example --role owner',
    ...MEMBERSHIP,
    run: (sql, input) => organizations.addMember(sql, input),
    text: roleText,
  }),
  spec({
    name: 'member set-role',
    summary: "Change a member's role. Keys created by someone who is no longer an owner or admin stop working.",
    synopsis: `--org <id|slug> --user <id|email> --role ${ROLE_CHOICES}`,
    example: 'coinventory-server member set-role --org liberty-coins --user dana@liberty-coins.example --role member',
    ...MEMBERSHIP,
    run: (sql, input) => organizations.setRole(sql, input),
    text: roleText,
  }),
  spec({
    name: 'member remove',
    summary: 'Remove a member from an organization; the keys they created stop working.',
    synopsis: '--org <id|slug> --user <id|email>',
    example: 'coinventory-server member remove --org liberty-coins --user dana@liberty-coins.example',
    options: { org: string, user: string },
    input: z.object({ org, user }),
    run: (sql, input) => organizations.removeMember(sql, input),
    text: (m) => `${m.email} is no longer a member of the organization.`,
  }),
] as const;
