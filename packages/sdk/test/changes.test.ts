import type { ChangeType } from '@coinventory/contract/constants';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { BadRequestError, type Change, type ChangeList, CoinventoryError } from '../src/index.js';
import { useFakeClock } from './support/clock.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();
useFakeClock();

/**
 * The changes feed as the API serves it: changes at positions 1…n, cursors `cur-<position>`, pages after a cursor in
 * position order, `nextCursor` the last change's cursor while more follow and the feed's end once they do not (past
 * changes the type filter left out). Records each request's query.
 */
function fakeFeed(types: ChangeType[] = []) {
  const changes: Change[] = [];
  const queries: Record<string, string>[] = [];
  const add = (...added: ChangeType[]) => {
    for (const type of added) {
      const n = changes.length + 1;
      const data = type === 'item.deleted' ? null : { id: `it-${n}` };
      changes.push({ id: `c${n}`, type, objectId: `it-${n}`, occurredAt: new Date(0).toISOString(), data } as Change);
    }
  };
  add(...types);
  server.use(
    http.get(url('/changes'), ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      const after = query.after === undefined ? 0 : Number(query.after.replace('cur-', ''));
      const limit = Number(query.limit ?? '100');
      const wanted = query.types?.split(',');
      const matching = changes
        .map((change, index) => ({ change, position: index + 1 }))
        .filter(({ change, position }) => position > after && (!wanted || wanted.includes(change.type)));
      const page = matching.slice(0, limit);
      const hasMore = matching.length > limit;
      const next = hasMore ? (page.at(-1)?.position ?? after) : changes.length;
      return HttpResponse.json({ items: page.map((p) => p.change), nextCursor: `cur-${next}`, hasMore });
    }),
  );
  return { changes, queries, add, afters: () => queries.map((q) => q.after ?? null) };
}

const created = (n: number): ChangeType[] => Array.from({ length: n }, () => 'item.created');
const ids = (changes: Change[]) => changes.map((c) => c.id);

describe('client.changes.list() and cursor()', () => {
  it('sends after, limit and types (comma-separated), leaving out what is not given', async () => {
    const feed = fakeFeed(['item.created', 'item.updated', 'item.deleted']);
    const page = await makeClient().changes.list({ after: 'cur-0', limit: 2, types: ['item.created', 'item.deleted'] });
    expect(feed.queries).toEqual([{ after: 'cur-0', limit: '2', types: 'item.created,item.deleted' }]);
    expect(ids(page.items)).toEqual(['c1', 'c3']);
    expect(page).toMatchObject({ nextCursor: 'cur-3', hasMore: false });
    await makeClient().changes.list();
    expect(feed.queries[1]).toEqual({});
  });

  it.each([[[]], ['item.created' as unknown as ChangeType[]]])(
    'refuses types that is not a list of at least one type (%j) before sending anything',
    async (types) => {
      const feed = fakeFeed();
      await expect(makeClient().changes.list({ types })).rejects.toThrowError(/`types` must list at least one/);
      expect(() => makeClient().changes.all({ types })).toThrowError(CoinventoryError);
      expect(feed.queries).toEqual([]);
    },
  );

  it('cursor() gives the end of the feed', async () => {
    server.use(http.get(url('/changes/cursor'), () => HttpResponse.json({ cursor: 'cur-7' })));
    expect(await makeClient().changes.cursor()).toEqual({ cursor: 'cur-7' });
  });
});

describe('client.changes.pages()', () => {
  it('follows nextCursor from page to page until hasMore is false', async () => {
    const feed = fakeFeed(created(5));
    const pages: ChangeList[] = [];
    for await (const page of makeClient().changes.pages({ limit: 2 })) pages.push(page);
    expect(pages.map((p) => ids(p.items))).toEqual([['c1', 'c2'], ['c3', 'c4'], ['c5']]);
    expect(pages.map((p) => p.nextCursor)).toEqual(['cur-2', 'cur-4', 'cur-5']);
    expect(feed.afters()).toEqual([null, 'cur-2', 'cur-4']);
    expect(feed.queries.every((q) => q.limit === '2')).toBe(true);
  });

  it('skips pages with no changes, while its cursor still moves past them', async () => {
    const feed = fakeFeed(['item.updated', 'item.updated', 'item.updated']);
    const pages = makeClient().changes.pages({ after: 'cur-0', types: ['item.deleted'] });
    const seen: ChangeList[] = [];
    for await (const page of pages) seen.push(page);
    expect(seen).toEqual([]);
    expect(pages.cursor).toBe('cur-3');
    expect(feed.queries).toEqual([{ after: 'cur-0', types: 'item.deleted' }]);
  });

  it('gives exactly-once to a consumer that stores nextCursor with the page, across a crash', async () => {
    fakeFeed(created(7));
    // A store that applies a page and its cursor in one transaction.
    const store = { applied: [] as string[], cursor: undefined as string | undefined };
    const run = async (crashAt?: string) => {
      for await (const page of makeClient().changes.pages({ after: store.cursor, limit: 3 })) {
        if (page.items.some((c) => c.id === crashAt)) throw new Error('crash before the transaction commits');
        store.applied.push(...ids(page.items));
        store.cursor = page.nextCursor;
      }
    };
    await expect(run('c5')).rejects.toThrowError(/crash/);
    expect(store).toEqual({ applied: ['c1', 'c2', 'c3'], cursor: 'cur-3' });
    await run();
    expect(store.applied).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect(store.cursor).toBe('cur-7');
  });
});

describe('client.changes.all()', () => {
  it('yields every change in order, across pages', async () => {
    fakeFeed(created(5));
    const seen: Change[] = [];
    for await (const change of makeClient().changes.all({ limit: 2 })) seen.push(change);
    expect(ids(seen)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('exposes as cursor the nextCursor of the last page whose changes were all yielded', async () => {
    fakeFeed(created(5));
    const feed = makeClient().changes.all({ after: 'cur-0', limit: 2 });
    expect(feed.cursor).toBe('cur-0');
    const cursors: [string, string | undefined][] = [];
    for await (const change of feed) cursors.push([change.id, feed.cursor]);
    expect(cursors).toEqual([
      ['c1', 'cur-0'],
      ['c2', 'cur-2'],
      ['c3', 'cur-2'],
      ['c4', 'cur-4'],
      ['c5', 'cur-5'],
    ]);
  });

  it('starts with no cursor when given no after, and has one once a page is done', async () => {
    fakeFeed(created(2));
    const feed = makeClient().changes.all();
    expect(feed.cursor).toBeUndefined();
    for await (const _ of feed) break;
    expect(feed.cursor).toBeUndefined();
    const again = makeClient().changes.all();
    for await (const _ of again);
    expect(again.cursor).toBe('cur-2');
  });

  it('resumes from a stored cursor, repeating only the changes of the page it was in', async () => {
    const feed = fakeFeed(created(6));
    const applied: string[] = [];
    let stored: string | undefined;
    const first = makeClient().changes.all({ limit: 2 });
    for await (const change of first) {
      applied.push(change.id);
      stored = first.cursor;
      if (change.id === 'c3') break; // the process stops in the middle of the second page
    }
    expect(stored).toBe('cur-2');
    const resumed = makeClient().changes.all({ after: stored, limit: 2 });
    for await (const change of resumed) {
      applied.push(change.id);
      stored = resumed.cursor;
    }
    expect(applied).toEqual(['c1', 'c2', 'c3', 'c3', 'c4', 'c5', 'c6']);
    expect(stored).toBe('cur-6');
    expect(feed.afters()).toEqual([null, 'cur-2', 'cur-2', 'cur-4']);
  });

  it('can be iterated once', async () => {
    fakeFeed(created(1));
    const feed = makeClient().changes.all();
    for await (const _ of feed);
    await expect(
      (async () => {
        for await (const _ of feed);
      })(),
    ).rejects.toThrowError(/already been iterated.*after: feed\.cursor/);
  });

  it('rejects with the API error, for example an expired cursor', async () => {
    server.use(
      http.get(url('/changes'), () =>
        HttpResponse.json(errorBody('BAD_REQUEST', 'Invalid input data', [{ message: 'query.after: expired' }]), {
          status: 400,
        }),
      ),
    );
    const iterate = async () => {
      for await (const _ of makeClient().changes.all({ after: 'cur-1' }));
    };
    await expect(iterate()).rejects.toBeInstanceOf(BadRequestError);
  });

  it('stops rather than loop when a page says hasMore without moving the cursor', async () => {
    server.use(http.get(url('/changes'), () => HttpResponse.json({ items: [], nextCursor: 'cur-1', hasMore: true })));
    const iterate = async () => {
      for await (const _ of makeClient().changes.pages({ after: 'cur-1' }));
    };
    await expect(iterate()).rejects.toThrowError(/without moving its cursor/);
  });
});

describe('following the feed (follow: true)', () => {
  it('polls at the end of the feed every pollIntervalMs and yields new changes, until the signal aborts', async () => {
    const feed = fakeFeed(created(2));
    const controller = new AbortController();
    const changes = makeClient().changes.all({ follow: true, pollIntervalMs: 1_000 }, { signal: controller.signal });
    const seen: string[] = [];
    const done = (async () => {
      for await (const change of changes) seen.push(change.id);
    })();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['c1', 'c2']);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(feed.afters()).toEqual([null, 'cur-2', 'cur-2']);
    feed.add('item.updated', 'item.deleted');
    await vi.advanceTimersByTimeAsync(500);
    expect(seen).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(changes.cursor).toBe('cur-4');
    controller.abort();
    await done; // ends quietly: no APIUserAbortError
    expect(feed.queries).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(feed.queries).toHaveLength(4);
  });

  it('defaults to polling every 5 s', async () => {
    const feed = fakeFeed();
    const controller = new AbortController();
    const done = (async () => {
      for await (const _ of makeClient().changes.pages({ follow: true }, { signal: controller.signal }));
    })();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(feed.queries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(feed.queries).toHaveLength(2);
    controller.abort();
    await done;
  });

  it('ends quietly when aborted during a request', async () => {
    server.use(http.get(url('/changes'), () => new Promise<Response>(() => {})));
    const controller = new AbortController();
    const done = (async () => {
      for await (const _ of makeClient().changes.all({ follow: true }, { signal: controller.signal }));
    })();
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await expect(done).resolves.toBeUndefined();
  });

  it('stops in the middle of a page when aborted, its cursor on the last page done', async () => {
    fakeFeed(created(4));
    const controller = new AbortController();
    const feed = makeClient().changes.all({ limit: 2, follow: true }, { signal: controller.signal });
    const seen: string[] = [];
    for await (const change of feed) {
      seen.push(change.id);
      if (change.id === 'c3') controller.abort();
    }
    expect(seen).toEqual(['c1', 'c2', 'c3']);
    expect(feed.cursor).toBe('cur-2');
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses pollIntervalMs = %s', (pollIntervalMs) => {
    expect(() => makeClient().changes.pages({ follow: true, pollIntervalMs })).toThrowError(/pollIntervalMs/);
  });
});
