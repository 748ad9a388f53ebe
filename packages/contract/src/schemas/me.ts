import { z } from 'zod';
import { SCOPES } from '../constants.js';
import { dateTime, uuid } from '../primitives.js';
import { OrganizationSchema } from './organization.js';

export const ApiKeySummarySchema = z
  .object({
    id: uuid.describe('Key id (not the secret).'),
    name: z.string().nullable().describe('Name given to the key at creation.'),
    expiresAt: dateTime.nullable().describe('When the key stops working; null when it never expires.'),
    scopes: z
      .array(z.enum(SCOPES))
      .describe('What the key may do: `read` allows GET requests, `write` allows requests that change data.'),
  })
  .strict()
  .describe('The API key the request was authenticated with.');

export const RateLimitInfoSchema = z
  .object({
    maxRequests: z.number().int().min(1).describe('Requests allowed per window, per key.'),
    windowSeconds: z.number().int().min(1).describe('Length of the window in seconds.'),
  })
  .strict()
  .describe('The rate limit applied to this key.');

export const MeSchema = z
  .object({
    organization: OrganizationSchema,
    apiKey: ApiKeySummarySchema,
    rateLimit: RateLimitInfoSchema,
  })
  .strict()
  .describe('Who the request is authenticated as.');
