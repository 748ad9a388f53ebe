import { type Change, type ChangeList, ChangeListSchema, type Item, ItemListSchema } from '@coinventory/contract';
import { expectStatus } from './http.js';
import type { Api } from './items.js';

/** One page of the feed, checked against the contract. */
export async function changesPage(api: Api, query: Record<string, string | number> = {}): Promise<ChangeList> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await api.get(`/changes${search.size > 0 ? `?${search}` : ''}`);
  expectStatus(response, 200);
  return ChangeListSchema.parse(response.body);
}

export async function feedCursor(api: Api): Promise<string> {
  const response = await api.get<{ cursor: string }>('/changes/cursor');
  expectStatus(response, 200);
  return response.body.cursor;
}

/** Follows the feed from `after` to its end, page by page; returns every change and the cursor to store. */
export async function readToEnd(
  api: Api,
  after: string | undefined,
  options: { limit?: number; types?: string } = {},
): Promise<{ changes: Change[]; cursor: string; pages: number }> {
  const changes: Change[] = [];
  let cursor = after;
  for (let pages = 1; ; pages += 1) {
    const page = await changesPage(api, {
      ...(cursor !== undefined && { after: cursor }),
      ...(options.limit !== undefined && { limit: options.limit }),
      ...(options.types !== undefined && { types: options.types }),
    });
    changes.push(...page.items);
    cursor = page.nextCursor;
    if (!page.hasMore) return { changes, cursor, pages };
  }
}

/** A consumer's copy of the items: each change's data replaces the item, a deletion removes it. */
export function applyChanges(copy: Map<string, Item>, changes: readonly Change[]): void {
  for (const change of changes) {
    if (change.type === 'item.deleted') copy.delete(change.objectId);
    else if (change.type === 'item.created' || change.type === 'item.updated') copy.set(change.objectId, change.data);
  }
}

/** Every item of the organization, read through the API a page at a time. */
export async function readAllItems(api: Api): Promise<Map<string, Item>> {
  const items = new Map<string, Item>();
  for (let page = 1; ; page += 1) {
    const response = await api.get(`/items?limit=100&page=${page}&sort=oldest`);
    expectStatus(response, 200);
    const list = ItemListSchema.parse(response.body);
    for (const item of list.items) items.set(item.id, item);
    if (!list.hasMore) return items;
  }
}
