import { z } from 'zod';
import { count, strictObject } from './fields.js';
import { ListItemsQuerySchema } from './item.js';

/** The list's filters; an export has no pages and its order is fixed (oldest first: `createdAt`, then `id`). */
export const ExportItemsQuerySchema = ListItemsQuerySchema.omit({ page: true, limit: true, sort: true });

export const ItemsExportEndSchema = strictObject(
  'The last line of an NDJSON export: how many items it held and where to follow the changes feed from.',
  {
    count: count('Items in the export (the lines before this one).'),
    nextCursor: z
      .string()
      .describe(
        'The changes cursor at the snapshot the export was read from: `GET /changes?after=` it gives every change made since, none already in the export.',
      ),
  },
);
