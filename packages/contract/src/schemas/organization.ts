import { z } from 'zod';
import { uuid } from '../primitives.js';

export const OrganizationSchema = z
  .object({
    id: uuid.describe('Organization id.'),
    name: z.string().describe('Display name of the workspace.'),
    slug: z.string().describe('URL-safe short name of the workspace.'),
  })
  .strict()
  .describe('A workspace: the organization that owns every other resource.');
