import { join } from 'node:path';
import { send } from '../capture.mjs';
import { changePlan, changesAfter, compareChanges, feedCursor, followFeed, writeChanges } from '../feed.mjs';
import { FEED_PAGE } from '../scenarios.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, percentile } from '../util.mjs';
import { FEED, MAIN } from './options.mjs';

/**
 * The changes feed beside the scenarios: the batch of changes the `changes` scenario reads (made through the API
 * before the capture run, the cursor taken just before it), and a consumer catching up after 100 changes, against
 * the measuring server.
 */

/** @typedef {import('../scenarios.mjs').Target} Target */

/**
 * @typedef {object} CatchUp
 * @property {number} items           items in the workspace
 * @property {number} writes          changes made through the API after the consumer's cursor
 * @property {Record<string, number>} written   of them, by type
 * @property {number} requests        GETs the consumer needed until hasMore was false
 * @property {number} received        changes those GETs returned
 * @property {number} seenOnce        written changes returned exactly once (by type and object id)
 * @property {number} notWritten      changes returned that no write made
 * @property {boolean} inOrder        in the order they were written (which is commit order: the writes were sequential)
 * @property {boolean} dataAsWritten  each with the item as the write left it (null for a delete)
 * @property {boolean} hasMore        the last page's
 * @property {number} catchUpMs       the consumer's whole catch-up, as it happened
 * @property {number} repeats         sequential repeats of the catch-up's first request, for its latency
 * @property {number} p50Ms
 * @property {number} maxMs
 */

/**
 * Makes the batch the `changes` scenario reads, with a server started for it and stopped after, and returns the
 * cursor taken before it. The batch is larger than a page, so the page after the cursor stays full and the same
 * while later scenarios add changes.
 * @param {{ databaseUrl: string, work: string, target: Target }} step
 */
export async function prepareFeed({ databaseUrl, work, target }) {
  log(`changes feed: ${FEED.batch.changes} changes through the API for the changes scenario`);
  const server = await startServer({
    main: MAIN,
    databaseUrl,
    port: await freePort(),
    workers: 1,
    logFile: join(work, 'feed-server.log'),
  });
  try {
    const cursor = await feedCursor(server.origin, target.key);
    await writeChanges(server.origin, target, changePlan(target, FEED.batch.changes, FEED.batch.creates));
    return cursor;
  } finally {
    await server.stop();
  }
}

/**
 * Refuses a captured `changes` page that is not a full page with more after it: the scenario's changes/s would
 * not be requests/s × FEED_PAGE.
 * @param {import('../capture.mjs').CapturedResponse} response
 */
export function checkFeedPage(response) {
  const page = /** @type {import('@coinventory/contract').ChangeList} */ (JSON.parse(response.body.toString('utf8')));
  if (page.items.length !== FEED_PAGE || !page.hasMore) {
    throw new Error(`the changes page holds ${page.items.length} changes (hasMore ${page.hasMore}), not ${FEED_PAGE}`);
  }
}

/**
 * Milliseconds of one GET, which must succeed.
 * @param {string} origin
 * @param {string} path
 * @param {string} key
 */
async function timedGet(origin, path, key) {
  const started = performance.now();
  const response = await send(origin, { method: 'GET', path }, key);
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.body}`);
  return ms;
}

/**
 * A consumer's catch-up: it takes the cursor, FEED.catchUp.changes changes are made through the API, and it follows
 * the feed from the cursor; what it received is compared with what was written. Then the catch-up's first request
 * is repeated, one at a time, for its latency.
 * @param {string} origin  the measuring server
 * @param {Target} target
 * @returns {Promise<CatchUp>}
 */
export async function measureCatchUp(origin, target) {
  log(`changes feed: a consumer catching up after ${FEED.catchUp.changes} changes`);
  const cursor = await feedCursor(origin, target.key);
  const written = await writeChanges(origin, target, changePlan(target, FEED.catchUp.changes, FEED.catchUp.creates));
  const started = performance.now();
  const feed = await followFeed(origin, target.key, cursor);
  const catchUpMs = performance.now() - started;
  /** @type {number[]} */
  const latencies = [];
  for (let i = 0; i < FEED.catchUp.repeats; i++)
    latencies.push(await timedGet(origin, changesAfter(cursor), target.key));
  const sorted = Float64Array.from(latencies).sort();
  /** @type {Record<string, number>} */
  const byType = {};
  for (const w of written) byType[w.type] = (byType[w.type] ?? 0) + 1;
  return {
    items: target.items,
    writes: written.length,
    written: byType,
    requests: feed.requests,
    received: feed.changes.length,
    ...compareChanges(written, feed.changes),
    hasMore: feed.hasMore,
    catchUpMs,
    repeats: latencies.length,
    p50Ms: percentile(sorted, 50),
    maxMs: percentile(sorted, 100),
  };
}
