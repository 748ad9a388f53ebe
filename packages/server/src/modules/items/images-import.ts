import { z } from 'zod';
import type { TransactionSql } from '../../db/types.js';
import { ProvisioningError } from '../../errors.js';
import { field, type ImportKind } from '../imports/index.js';
import { replaceImages } from './service.js';
import { type ItemImage, idsBySku } from './store.js';

/**
 * Item images as an operator imports them (`import images FILE`): one row per image, `sku`, `url`, `width`,
 * `height`. The rows of an item are its images, in file order: an item the file names gets exactly those (an
 * `item.updated` change when they differ from what it had), an item it does not name keeps its own.
 */

const pixels = field
  .wholeNumber(1, 100_000, 'a whole number of pixels')
  .optional()
  .transform((value) => value ?? null);

const ImageRow = z
  .object({
    sku: field.sku,
    url: field.httpUrl,
    width: pixels,
    height: pixels,
  })
  .strict();
type ImageRow = z.infer<typeof ImageRow>;

async function writeImages(tx: TransactionSql, organizationId: string, rows: ImageRow[]) {
  const bySku = new Map<string, ItemImage[]>();
  for (const row of rows) {
    bySku.set(row.sku, [...(bySku.get(row.sku) ?? []), { url: row.url, width: row.width, height: row.height }]);
  }
  const ids = await idsBySku(tx, organizationId, [...bySku.keys()]);
  let created = 0;
  let updated = 0;
  for (const [sku, images] of bySku) {
    const id = ids.get(sku);
    // check() refused the rows of SKUs that did not exist; one deleted since then refuses the whole import.
    if (id === undefined) {
      throw new ProvisioningError(
        'refused',
        `No item with SKU "${sku}" any more (deleted during the import); nothing imported.`,
      );
    }
    const before = new Set(
      (
        await tx<{ url: string }[]>`
          SELECT url FROM item_images WHERE organization_id = ${organizationId} AND item_id = ${id}
        `
      ).map((image) => image.url),
    );
    if (!(await replaceImages(tx, organizationId, id, images))) continue;
    // An image new to the item is created; one it had, updated (its size or place may have changed).
    for (const image of images) {
      if (before.has(image.url)) updated += 1;
      else created += 1;
    }
  }
  return { created, updated, touched: new Set<string>() };
}

export const IMAGES_IMPORT: ImportKind<ImageRow> = {
  name: 'images',
  fields: Object.keys(ImageRow.shape),
  required: ['sku', 'url'],
  row: ImageRow,
  key: (row) => JSON.stringify([row.sku, row.url]),
  keyFields: 'sku and url',
  check: async (sql, organizationId, rows) => {
    const ids = await idsBySku(sql, organizationId, [...new Set(rows.map((entry) => entry.value.sku))]);
    return rows
      .filter((entry) => !ids.has(entry.value.sku))
      .map((entry) => ({ row: entry.row, reason: `sku: no item with SKU "${entry.value.sku}"` }));
  },
  write: writeImages,
};
