import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
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
import type { TransactionSql } from '../../db/types.js';
import { ApiError } from '../../errors.js';
import { etagOfHash, noneMatchHits } from '../../request/etag.js';
import type { ReadContext } from '../../request/pipeline.js';
import { currentCursor } from '../changes/index.js';
import { ITEMS } from './columns.js';
import { exportQuery } from './store.js';

/**
 * Rows fetched per round trip. Each fetch is one short statement, encoded and appended to the export's temporary
 * file before the next: at most about this many items are held in memory.
 */
export const ROWS_PER_FETCH = 500;

/** One media range of an `Accept` header: its type, subtype and weight (parameters other than `q` are ignored). */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const [order, part] of accept.split(',').entries()) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name === 'q' && value !== undefined && /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) q = Number(value);
    }
    ranges.push({ type, subtype, q, order });
  }
  return ranges;
}

/**
 * The format the caller asked for (RFC 9110 §12.5.1): CSV when `Accept` weighs `text/csv` above NDJSON, NDJSON
 * otherwise (also for JSON, `*` and no `Accept`). A format takes the weight of the most specific range naming it;
 * parameters such as `charset=utf-8` or `header=present` do not keep a range from naming it (both formats are
 * UTF-8). On a tie the more specific range wins, then the one listed first.
 */
export function exportFormat(req: Request): ExportFormat {
  const ranges = mediaRanges(req.get('accept') ?? '');
  const rank = (mediaType: string) => {
    const [type, subtype] = mediaType.split('/');
    let best: { q: number; specificity: number; order: number } | undefined;
    for (const range of ranges) {
      const specificity =
        range.type === type && range.subtype === subtype
          ? 2
          : range.type === type && range.subtype === '*'
            ? 1
            : range.type === '*' && range.subtype === '*'
              ? 0
              : -1;
      if (specificity < 0 || (best && specificity <= best.specificity)) continue;
      best = { q: range.q, specificity, order: range.order };
    }
    return best;
  };
  const csv = rank(EXPORTS.mediaTypes.csv);
  const ndjson = rank(EXPORTS.mediaTypes.ndjson);
  if (!csv || csv.q === 0) return 'ndjson';
  if (!ndjson || ndjson.q < csv.q) return 'csv';
  if (ndjson.q > csv.q) return 'ndjson';
  if (csv.specificity !== ndjson.specificity) return csv.specificity > ndjson.specificity ? 'csv' : 'ndjson';
  return csv.order < ndjson.order ? 'csv' : 'ndjson';
}

interface Encoding {
  contentType: string;
  header: string;
  line(item: Item): string;
  /** The NDJSON end line; a CSV export has none (its facts are in the headers, as for both). */
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

/** Why an export stopped before its answer was sent, without the database failing. */
class ExportStopped extends Error {
  override name = 'ExportStopped';
}

/**
 * The exports under way in one server process, by API key and by organization: each holds, while it reads its snapshot, a
 * database connection, and until its answer closes a temporary file. A slot is given back when those are, not when the
 * caller leaves: a caller that hangs up mid-read keeps its slot until the read notices and rolls back.
 */
export class ExportSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  /** @param stallTimeoutMs how long an answer's reader may take nothing before it is dropped and its slot freed. */
  constructor(readonly stallTimeoutMs: number = EXPORTS.stallTimeoutMs) {}

  /**
   * Takes a slot for the key of an organization, or refuses: 429 over the key's or the organization's cap, 503 over the
   * process's. Returns its release, which may be called more than once.
   */
  acquire(keyId: string, organizationId: string): () => void {
    const retry = { 'Retry-After': String(EXPORTS.busyRetryAfterSeconds) };
    const byKey = `key:${keyId}`;
    const byOrganization = `organization:${organizationId}`;
    if ((this.held.get(byKey) ?? 0) >= EXPORTS.maxPerKey) throw new ApiError('TOO_MANY_REQUESTS', undefined, retry);
    if ((this.held.get(byOrganization) ?? 0) >= EXPORTS.maxPerOrganization) {
      throw new ApiError('TOO_MANY_REQUESTS', undefined, retry);
    }
    if (this.total >= EXPORTS.maxPerProcess) throw new ApiError('SERVICE_UNAVAILABLE', undefined, retry);
    this.total += 1;
    for (const name of [byKey, byOrganization]) this.held.set(name, (this.held.get(name) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      for (const name of [byKey, byOrganization]) {
        const left = (this.held.get(name) ?? 1) - 1;
        if (left > 0) this.held.set(name, left);
        else this.held.delete(name);
      }
    };
  }
}

/** An export read into a temporary file: what to send, and the facts of its snapshot. */
export interface SpooledExport {
  file: FileHandle;
  bytes: number;
  etag: string;
  cursor: string;
  count: number;
}

/**
 * A temporary file only this process can reach: created exclusively (0600) and unlinked at once, so nothing is left
 * behind whatever happens to the process; it lives until its handle is closed.
 */
async function anonymousFile(): Promise<FileHandle> {
  const path = join(tmpdir(), `coinventory-export-${process.pid}-${randomUUID()}`);
  const file = await open(path, 'wx+', 0o600);
  try {
    await unlink(path);
  } catch (error) {
    await file.close();
    throw error;
  }
  return file;
}

/**
 * Reads the export into a temporary file: the items the filters keep, in one read-only REPEATABLE READ transaction, so
 * every row and the changes cursor come from one snapshot. Change positions are handed out under a lock held to each
 * write's commit (modules/changes), so the feed's last position in this snapshot is exactly the changes it contains:
 * following the feed from it gives every later change and none already exported.
 *
 * Rows come from a server-side cursor a fetch at a time and go straight to the file, so memory stays flat whatever the
 * size, and the transaction (on the embedded database, its one connection) lasts as long as the database takes to read
 * them, never as long as the caller takes to download them. `stopped` is checked between fetches: a caller that went
 * away, or a request given up by its deadline, ends the transaction.
 */
export async function spoolItemsExport(
  snapshot: ReadContext['snapshot'],
  organizationId: string,
  query: ExportItemsQuery,
  format: ExportFormat,
  stopped: () => string | undefined,
): Promise<SpooledExport> {
  const encoding = ENCODINGS[format];
  const file = await anonymousFile();
  const hash = createHash('sha256');
  let bytes = 0;
  const append = async (text: string) => {
    if (text === '') return;
    const chunk = Buffer.from(text, 'utf8');
    bytes += chunk.length;
    if (bytes > EXPORTS.maxBytes) {
      throw new ApiError('BAD_REQUEST', [
        `query: the export would be larger than ${EXPORTS.maxBytes} bytes; narrow it with the filters (status, categoryId, gradingService, grade, sku, q) and export in parts`,
      ]);
    }
    hash.update(chunk);
    for (let written = 0; written < chunk.length; ) {
      written += (await file.write(chunk, written, chunk.length - written)).bytesWritten;
    }
  };
  try {
    const { cursor, count } = await snapshot(async (tx: TransactionSql) => {
      // On the embedded database the transaction may have waited for the one connection: no read for a caller gone.
      const before = stopped();
      if (before !== undefined) throw new ExportStopped(before);
      const { cursor } = await currentCursor(tx, organizationId);
      let count = 0;
      await append(encoding.header);
      // PostgreSQL times the cursor's portal as one statement from its first fetch to its last, so
      // STATEMENT_TIMEOUT_MS would cut every large export. This transaction only reads, through an index in one
      // order, and EXPORTS.readTimeoutMs (the export's request deadline) still bounds it: it goes without.
      await tx`SET LOCAL statement_timeout = 0`;
      for await (const rows of exportQuery(tx, organizationId, query).cursor(ROWS_PER_FETCH)) {
        let text = '';
        for (const row of rows) text += encoding.line(ITEMS.toApi(row as RowOf<typeof ITEMS.columns>));
        count += rows.length;
        await append(text);
        const reason = stopped();
        if (reason !== undefined) throw new ExportStopped(reason);
      }
      return { cursor, count };
    });
    await append(encoding.end({ count, nextCursor: cursor }));
    return { file, bytes, etag: etagOfHash(hash), cursor, count };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/**
 * Answers with a spooled export: 200 with its length, ETag and the snapshot's facts in headers (304 when
 * `If-None-Match` names the ETag; HEAD without the body). The file is sent as the caller takes it, and closed when the
 * answer closes, whichever way; a caller that takes nothing for `stallTimeoutMs` is cut off. Returns the body for
 * ts-rest to pipe.
 */
export function answerWithExport(
  req: Request,
  res: Response,
  spooled: SpooledExport,
  format: ExportFormat,
  logger: Logger,
  requestId: string,
  stallTimeoutMs: number,
  closed: () => void = () => {},
): { status: 200 | 304; body: Readable } {
  const { file, bytes, etag, cursor, count } = spooled;
  res.setHeader('ETag', etag);
  res.setHeader(EXPORTS.headers.cursor, cursor);
  res.setHeader(EXPORTS.headers.count, String(count));
  const notModified = noneMatchHits(req.get('if-none-match'), etag);
  if (!notModified) {
    res.setHeader('Content-Type', ENCODINGS[format].contentType);
    res.setHeader('Content-Length', String(bytes));
    if (format === 'csv') res.setHeader('Content-Disposition', 'attachment; filename="items.csv"');
  }
  if (notModified || req.method === 'HEAD') {
    file.close().then(closed, closed);
    return { status: notModified ? 304 : 200, body: Readable.from([]) };
  }
  const body = file.createReadStream({ start: 0, autoClose: true });
  // The stream closes the file when it ends or is destroyed, and says 'close' after.
  body.on('close', closed);
  // Progress is a chunk read from the file or the socket taking what it was given; a caller that allows neither for
  // the stall limit holds a file and a slot for nothing.
  const stall = setTimeout(() => {
    logger.info({ requestId, reason: `the caller took nothing for ${stallTimeoutMs} ms` }, 'export stopped');
    res.destroy();
  }, stallTimeoutMs);
  const progress = () => stall.refresh();
  body.on('data', progress);
  res.on('drain', progress);
  body.on('error', (error) => {
    // The file was read before; failing now cuts the answer short of its Content-Length, which the caller can tell.
    logger.error({ err: error, requestId }, 'export failed part-way: the answer was cut short');
    res.destroy();
  });
  res.on('close', () => {
    clearTimeout(stall);
    body.destroy();
  });
  return { status: 200, body };
}

/**
 * `GET /exports/items`: takes a slot (per key and per process), reads the export into a temporary file, then answers
 * from it. Nothing is sent before the snapshot has been read whole, so a failure then is an ordinary error answer.
 */
export async function exportItems(
  context: ReadContext,
  query: ExportItemsQuery,
  req: Request,
  res: Response,
  slots: ExportSlots,
  logger: Logger,
): Promise<{ status: 200 | 304; body: Readable }> {
  const { organizationId, requestId } = context;
  // Every answer of the export depends on Accept, its errors too (a cache must not give CSV to an NDJSON reader).
  res.vary('Accept');
  // Nobody is left to answer: an empty body for ts-rest to pipe into the closed response, which sends nothing.
  const unanswered = (reason: string) => {
    logger.info({ requestId, reason }, 'export stopped');
    return { status: 200 as const, body: Readable.from([]) };
  };
  // A caller that hung up while the request waited (for the key's check, or the embedded database's one connection)
  // has closed the response already, and 'close' is not said again: it takes no slot and reads nothing.
  if (res.destroyed || req.socket.destroyed) return unanswered('the caller went away before the export began');
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  const release = slots.acquire(context.caller.apiKey.id, organizationId);
  // A large export takes longer to read than other requests may; its own bound replaces their deadline.
  context.extendDeadline(EXPORTS.readTimeoutMs);
  const format = exportFormat(req);
  const stopped = () => {
    if (gone || res.destroyed) return 'the caller went away';
    return context.abandoned ? 'the request was given up' : undefined;
  };
  let spooled: SpooledExport;
  try {
    spooled = await spoolItemsExport(context.snapshot, organizationId, query, format, stopped);
  } catch (error) {
    // The read has ended (rolled back) and its file is closed: the slot is free again.
    release();
    // Given up by its deadline: the lifecycle has answered, and the error handler notes the rest.
    if (error instanceof ExportStopped && (gone || res.destroyed)) return unanswered(error.message);
    throw error;
  }
  if (gone || res.destroyed) {
    await spooled.file.close().finally(release);
    return unanswered('the caller went away');
  }
  // From here the file holds the slot, until the answer is done with it.
  return answerWithExport(req, res, spooled, format, logger, requestId, slots.stallTimeoutMs, release);
}
