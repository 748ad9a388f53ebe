import { z } from 'zod';
import { SCOPES } from '../constants.js';
import { uuid } from '../primitives.js';
import { nullable, strictObject } from './fields.js';
import { OrganizationSchema } from './organization.js';

export const ApiKeySummarySchema = strictObject('The API key the request was authenticated with.', {
  id: uuid.describe('Key id (not the secret).'),
  name: nullable.string('Name given to the key at creation.'),
  expiresAt: nullable.dateTime('When the key stops working; null when it never expires.'),
  scopes: z
    .array(z.enum(SCOPES))
    .describe('What the key may do: `read` allows GET requests, `write` allows requests that change data.'),
});

export const RateLimitInfoSchema = strictObject('The rate limit applied to this key.', {
  maxRequests: z.number().int().min(1).describe('Requests allowed per window, per key.'),
  windowSeconds: z.number().int().min(1).describe('Length of the window in seconds.'),
});

export const MeSchema = strictObject('Who the request is authenticated as.', {
  organization: OrganizationSchema,
  apiKey: ApiKeySummarySchema,
  rateLimit: RateLimitInfoSchema,
});
