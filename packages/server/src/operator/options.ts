import { KEY_MODES, SCOPES, type Scope } from '@coinventory/contract';
import { z } from 'zod';
import { looksLikeUuid } from '../ids.js';
import { PLANS, ROLES } from '../modules/organizations/index.js';

/** The option values operator commands share, each with the message an operator sees when it is wrong. */

export const string = { type: 'string' } as const;
export const slug = z
  .string({ required_error: 'is required' })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters and digits in words joined by single hyphens')
  .max(63, 'must be at most 63 characters')
  // --org takes an id or a slug; a slug shaped like an id could never be looked up by it.
  .refine((value) => !looksLikeUuid(value), 'must not have the shape of a UUID (it would be read as an id)');
export const name = (max: number) =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
export const ref = (what: string) => z.string({ required_error: `is required (${what})` }).min(1, 'must not be empty');
export const email = z
  .string({ required_error: 'is required' })
  .email('must be an email address')
  .max(320, 'must be at most 320 characters');
export const plan = z.enum(PLANS, { errorMap: () => ({ message: `must be one of ${PLANS.join(', ')}` }) });
export const role = z.enum(ROLES, { errorMap: () => ({ message: `must be one of ${ROLES.join(', ')}` }) });
export const scopes = z
  .string({ required_error: `is required (${SCOPES.join(',')})` })
  .transform((value) => value.split(',').map((scope) => scope.trim()))
  .pipe(
    z.array(z.enum(SCOPES, { errorMap: () => ({ message: `each scope must be one of ${SCOPES.join(', ')}` }) })).min(1),
  )
  .transform((list) => [...new Set(list)] as Scope[]);
export const expiresAt = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset, e.g. 2027-01-01T00:00:00Z' })
  .transform((value) => new Date(value))
  .optional()
  .transform((value) => value ?? null);
export const uuid = z.string({ required_error: 'is required' }).uuid('must be a key id (a UUID)');

/** An organization or a user, as an operator names one: every command names a person --user, an organization --org. */
export const org = ref('an organization id or slug');
export const user = ref('a user id or email');

/** What a command that takes only --org declares. */
export const ORG_ONLY = { options: { org: string }, input: z.object({ org }) };

/** What a command without options declares. */
export const NO_OPTIONS = { options: {}, input: z.object({}) };

/** A synopsis's list of choices, from the list the option is checked against: `free|starter|business|enterprise`. */
export const oneOf = (choices: readonly string[]) => choices.join('|');
export const PLAN_CHOICES = `<${oneOf(PLANS)}>`;
export const ROLE_CHOICES = `<${oneOf(ROLES)}>`;
/** `<read[,write]>`: one scope or more, comma-separated, in the contract's order. */
export const SCOPE_CHOICES = `<${SCOPES.map((scope, index) => (index === 0 ? scope : `[,${scope}`)).join('')}${']'.repeat(SCOPES.length - 1)}>`;

/** Which of an organization's two modes a command works in: its live workspace (the default) or its test sandbox. */
export const mode = z
  .enum(KEY_MODES, { errorMap: () => ({ message: `must be one of ${KEY_MODES.join(', ')}` }) })
  .optional()
  .transform((value) => value ?? 'live');
export const MODE_CHOICES = `<${oneOf(KEY_MODES)}>`;

/** What a command that takes --org and --mode declares. */
export const ORG_AND_MODE = { options: { org: string, mode: string }, input: z.object({ org, mode }) };
/** The synopsis of --mode. */
export const MODE_OPTION = `[--mode ${MODE_CHOICES}]`;
