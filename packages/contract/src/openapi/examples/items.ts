import { ERRORS } from '../../constants.js';
import type {
  BatchItemsInput,
  BatchItemsResult,
  CreateItemInput,
  DeletedItem,
  Item,
  ItemList,
  UpdateItemInput,
} from '../../types.js';
import { firstPage } from './common.js';

export const item: Item = {
  id: '48598b4b-d2c9-4717-9dce-06fa221cd81f',
  sku: 'MOR-1921-D-63',
  title: '1921-D Morgan Dollar NGC MS63',
  description: 'Last-year Morgan from Denver. Bright, lightly toned obverse.',
  category: { id: 'a2c350ac-4fea-4686-988f-4a5571a2c04c', name: 'Morgan Dollars' },
  quantity: { available: 2, sold: 3, reserved: 0 },
  valueInCents: 8900,
  acquisition: {
    priceInCents: 7100,
    date: '2026-07-31T16:19:58.000Z',
    from: 'GreatCollections',
    notes: null,
  },
  grading: { service: 'NGC', grade: 'MS63', certificateNumber: '4478793-027', notes: null },
  attributes: { year: 1921, mint: 'Denver', metal: 'silver', fineness: 0.9, weightGrams: 26.73, toned: false },
  location: {
    warehouseId: '08c64068-d708-46e9-88b3-3e2321cba8ae',
    zoneId: '8198ea1b-6384-4b09-b8aa-24f1d9dd1470',
    details: 'Case 2, tray B',
  },
  consignmentId: null,
  isAtAuction: false,
  images: [{ url: 'https://images.liberty-coin.example/items/MOR-1921-D-63/1.jpg', width: 1600, height: 1600 }],
  createdAt: '2026-07-31T16:19:58.000Z',
  updatedAt: '2026-11-02T09:12:44.000Z',
};

export const createItemBody: CreateItemInput = {
  sku: 'MOR-1921-D-63',
  title: '1921-D Morgan Dollar NGC MS63',
  quantity: 2,
  valueInCents: 8900,
  acquisitionPriceInCents: 7100,
  acquisitionDate: '2026-07-31T16:19:58Z',
  acquiredFrom: 'GreatCollections',
  gradingService: 'NGC',
  grade: 'MS63',
  certificateNumber: '4478793-027',
  attributes: { year: 1921, mint: 'Denver', metal: 'silver' },
  locationDetails: 'Case 2, tray B',
};

export const updateItemBody: UpdateItemInput = { quantity: 1, valueInCents: 9400, locationDetails: null };

export const itemList: ItemList = firstPage([item], true);

export const deletedItem: DeletedItem = { id: item.id, deleted: true };

export const batchItemsBody: BatchItemsInput = {
  mode: 'upsert',
  items: [
    { sku: item.sku, quantity: 1 },
    { sku: 'MOR-1881-S-65', title: '1881-S Morgan Dollar PCGS MS65', valueInCents: 21500 },
    { sku: 'MOR-1904-O', title: '' },
  ],
};
export const batchItemsResult: BatchItemsResult = {
  mode: 'upsert',
  dryRun: false,
  created: 1,
  updated: 1,
  failed: 1,
  results: [
    {
      index: 0,
      status: 200,
      action: 'updated',
      item: { ...item, quantity: { ...item.quantity, available: 1 } },
      error: null,
    },
    {
      index: 1,
      status: 200,
      action: 'created',
      item: {
        ...item,
        id: '0b6f3c2e-9d4a-4e1b-8c7f-5a2d1e0f9b8c',
        sku: 'MOR-1881-S-65',
        title: '1881-S Morgan Dollar PCGS MS65',
        valueInCents: 21500,
        updatedAt: null,
      },
      error: null,
    },
    {
      index: 2,
      status: 400,
      action: null,
      item: null,
      error: {
        code: 'BAD_REQUEST',
        message: ERRORS.BAD_REQUEST.message,
        issues: [{ message: 'body.items.2.title: must be at least 1 character' }],
      },
    },
  ],
};
