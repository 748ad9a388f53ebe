// The export's 200 (`GET /exports/items`): NDJSON or CSV, with its length, ETag and the snapshot's facts in headers.

import { EXPORTS } from '../constants.js';
import { CSV_FORMULA_TRIGGERS, csvRecord, csvRow, ITEM_CSV_COLUMNS } from '../csv.js';
import type { contractRoutes } from '../routes.js';
import { COMPONENT_EXAMPLES } from './examples.js';
import { successHeaders } from './headers.js';
import { responseHeaders } from './responses.js';
import type { ResponseObject } from './types.js';

/**
 * The 200 of the export: NDJSON lines of Items and a last `{ count, nextCursor }` line, or CSV; both with their length,
 * ETag and the snapshot's facts in headers.
 */
export function streamedItemsResponse(route: (typeof contractRoutes)[number]['route']): ResponseObject {
  const item = COMPONENT_EXAMPLES.Item;
  const end = COMPONENT_EXAMPLES.ItemsExportEnd;
  return {
    description: `The whole export, read from one snapshot before it is sent. An answer shorter than its \`Content-Length\` (or, in NDJSON, without its last line) was cut short.`,
    headers: {
      ...responseHeaders(200),
      ...successHeaders(route),
      'Content-Length': {
        description: "The whole answer's length in bytes: an answer that ends short of it was cut short.",
        required: true,
        // Digits as sent (a header is text), so the example matches its schema.
        schema: { type: 'string', pattern: '^[0-9]+$' },
        example: '1432',
      },
      [EXPORTS.headers.cursor]: {
        description:
          "The changes cursor at the export's snapshot (NDJSON's last line has it too): follow `GET /changes` from it.",
        required: true,
        schema: { type: 'string' },
        example: end.nextCursor,
      },
      [EXPORTS.headers.count]: {
        description: 'How many items the export holds.',
        required: true,
        schema: { type: 'string', pattern: '^[0-9]+$' },
        example: String(end.count),
      },
      Vary: {
        description: 'The format follows `Accept`.',
        required: true,
        schema: { type: 'string' },
        example: 'Accept',
      },
    },
    content: {
      [EXPORTS.mediaTypes.ndjson]: {
        schema: {
          type: 'string',
          description:
            'One JSON object per line (LF): each an Item (`#/components/schemas/Item`), the last an `#/components/schemas/ItemsExportEnd`.',
        },
        example: `${JSON.stringify(item)}\n${JSON.stringify(end)}\n`,
      },
      [EXPORTS.mediaTypes.csv]: {
        schema: {
          type: 'string',
          description: `RFC 4180, a header row then one record per item: ${ITEM_CSV_COLUMNS.join(', ')}. A text value starting with ${CSV_FORMULA_TRIGGERS.map(triggerName).join(', ')} (after any leading \`'\`) gets one more leading \`'\`, so a spreadsheet shows it as text instead of running it as a formula; remove one \`'\` from such a cell to get the value back (Coinventory's imports do).`,
        },
        example: csvRecord(ITEM_CSV_COLUMNS) + csvRow(ITEM_CSV_COLUMNS, item),
      },
    },
  };
}

/** A formula trigger character as the document names it. */
const triggerName = (c: string) => (c === '\t' ? 'a tab' : c === '\r' ? 'a carriage return' : `\`${c}\``);
