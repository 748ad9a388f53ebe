import { z } from 'zod';
import { uuid } from '../primitives.js';
import { strictObject } from './fields.js';

export const OrganizationSchema = strictObject('A workspace: the organization that owns every other resource.', {
  id: uuid.describe('Organization id.'),
  name: z.string().describe('Display name of the workspace.'),
  slug: z.string().describe('URL-safe short name of the workspace.'),
});
