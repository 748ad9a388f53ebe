import { PassThrough, type Readable } from 'node:stream';
import {
  csvRecord,
  csvRow,
  EXPORTS,
  type ExportFormat,
  type ExportItemsQuery,
  ITEM_CSV_COLUMNS,
  type Item,
  type ItemsExportEnd,
} from '@coinventory/contract';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { RowOf } from '../../db/table.js';
import type { Sql } from '../../db/types.js';
import { currentCursor } from '../changes/index.js';
import { ITEMS } from './columns.js';
import { exportQuery } from './store.js';

/**
 * Rows fetched per round trip. Each fetch is one short statement; between fetches the export waits for the caller
 * to take what it was sent, so at most about this many items (and the socket's buffers) are held in memory.
 */
export const ROWS_PER_FETCH = 500;

/** The format the caller asked for: CSV when `Accept` prefers `text/csv`, NDJSON otherwise (also for `*` and JSON). */
export function exportFormat(req: Request): ExportFormat {
  return req.accepts([EXPORTS.mediaTypes.ndjson, EXPORTS.mediaTypes.csv]) === EXPORTS.mediaTypes.csv ? 'csv' : 'ndjson';
}

interface Encoding {
  contentType: string;
  header: string;
  line(item: Item): string;
  /** The NDJSON end line; a CSV export has none (its end goes in the trailers). */
  end(facts: ItemsExportEnd): string;
}

const ENCODINGS: Record<ExportFormat, Encoding> = {
  ndjson: {
    contentType: `${EXPORTS.mediaTypes.ndjson}; charset=utf-8`,
    header: '',
    line: (item) => `${JSON.stringify(item)}\n`,
    end: (facts) => `${JSON.stringify(facts)}\n`,
  },
  csv: {
    contentType: `${EXPORTS.mediaTypes.csv}; charset=utf-8; header=present`,
    header: csvRecord(ITEM_CSV_COLUMNS),
    line: (item) => csvRow(ITEM_CSV_COLUMNS, item),
    end: () => '',
  },
};

/** Why an export stopped before its end without the database failing. */
class ExportStopped extends Error {
  override name = 'ExportStopped';
}

/**
 * Resolves once `out` can take more, or throws when the caller went away or took nothing for
 * EXPORTS.stallTimeoutMs: the export holds a snapshot (and, on the embedded database, its one connection) open.
 */
function drained(out: PassThrough, gone: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      clearTimeout(timer);
      out.off('drain', onDrain);
      gone.removeEventListener('abort', onGone);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => finish();
    const onGone = () => finish(new ExportStopped('the caller went away'));
    const timer = setTimeout(
      () => finish(new ExportStopped(`the caller took nothing for ${EXPORTS.stallTimeoutMs} ms`)),
      EXPORTS.stallTimeoutMs,
    );
    if (gone.aborted) return onGone();
    out.once('drain', onDrain);
    gone.addEventListener('abort', onGone, { once: true });
  });
}

/**
 * `GET /exports/items`: the items the filters keep, read in one read-only REPEATABLE READ transaction, so every row
 * and the changes cursor come from one snapshot. Change positions are handed out under a lock held to each write's
 * commit (modules/changes), so the feed's last position in this snapshot is exactly the changes it contains: following
 * the feed from it gives every later change and none already exported.
 *
 * Rows come from a server-side cursor a fetch at a time, and the next fetch waits until the caller has taken the
 * last: memory stays flat whatever the size. A caller that disconnects ends the query (the transaction rolls back).
 *
 * Resolves with the stream once the first rows are read, so a failure before then is answered as an error body; a
 * failure after it cuts the answer short (no end line, no trailers), which the caller can tell from a complete one.
 */
export async function openItemsExport(
  sql: Sql,
  organizationId: string,
  query: ExportItemsQuery,
  format: ExportFormat,
  res: Response,
  logger: Logger,
): Promise<Readable> {
  const encoding = ENCODINGS[format];
  const out = new PassThrough();
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  let isStarted = false;
  const start = () => {
    if (isStarted) return;
    isStarted = true;
    markStarted();
  };

  const run = sql.begin('isolation level repeatable read read only', async (tx) => {
    const { cursor } = await currentCursor(tx, organizationId);
    let count = 0;
    let pending = encoding.header;
    // PostgreSQL times the cursor's portal as one statement from its first fetch to its last, so STATEMENT_TIMEOUT_MS
    // would cut every export that takes longer (a large one, a slow reader). This transaction only reads, through an
    // index in one order, and ends when its reader leaves or stalls (EXPORTS.stallTimeoutMs): it goes without.
    await tx`SET LOCAL statement_timeout = 0`;
    for await (const rows of exportQuery(tx, organizationId, query).cursor(ROWS_PER_FETCH)) {
      for (const row of rows) pending += encoding.line(ITEMS.toApi(row as RowOf<typeof ITEMS.columns>));
      count += rows.length;
      start();
      const more = out.write(pending);
      pending = '';
      if (gone.signal.aborted) throw new ExportStopped('the caller went away');
      if (!more) await drained(out, gone.signal);
    }
    if (pending !== '') out.write(pending);
    return { cursor, count };
  });

  run.then(
    ({ cursor, count }) => {
      start();
      if (format === 'csv') {
        res.addTrailers({ [EXPORTS.trailers.cursor]: cursor, [EXPORTS.trailers.count]: String(count) });
      }
      out.end(encoding.end({ count, nextCursor: cursor }));
    },
    (error: unknown) => {
      if (!isStarted) return; // answered as an error body by the route
      const { requestId } = res.locals as { requestId?: string };
      if (error instanceof ExportStopped) logger.info({ requestId, reason: error.message }, 'export stopped');
      else logger.error({ err: error, requestId }, 'export failed part-way: the answer was cut short');
      // Cut the answer short: without its end line or trailers, the caller can tell it is incomplete.
      out.destroy();
      res.destroy();
    },
  );

  await Promise.race([started, run]);
  res.setHeader('Content-Type', encoding.contentType);
  res.setHeader('Cache-Control', 'no-store');
  if (format === 'csv') {
    res.setHeader('Trailer', `${EXPORTS.trailers.cursor}, ${EXPORTS.trailers.count}`);
    res.setHeader('Content-Disposition', 'attachment; filename="items.csv"');
  }
  return out;
}
