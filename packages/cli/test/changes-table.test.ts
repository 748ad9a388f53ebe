import { CHANGE_TYPES, type ChangeType } from '@coinventory/contract/constants';
import openApiDocument from '@coinventory/contract/openapi';
import type { Change, Item } from '@coinventory/sdk';
import { describe, expect, it } from 'vitest';
import { ChangePrinter } from '../src/commands/change-printer.js';
import { createStyle, formatDate } from '../src/output/format.js';

// What `changes` prints for each change type, without a server: the contract's example of every type (the object as
// its GET returns it) through the printer the command uses, with what real changes rarely have (no summary, no name,
// a type this CLI does not know). changes.test.ts prints real changes of every type from a live server's feed.

/** The contract's example change of `type` (`ValuationCreatedChange` for `valuation.created`, …). */
function example(type: ChangeType): Change {
  const component = `${type.replace(/(?:^|\.)(\w)/g, (_, letter: string) => letter.toUpperCase())}Change`;
  const [found] = (openApiDocument.components.schemas[component]?.examples ?? []) as Change[];
  return found ?? expect.fail(`no example of ${component}`);
}

const printer = (format: 'table' | 'json' = 'table') =>
  new ChangePrinter(format, { style: createStyle(false), maxWidth: undefined });

/** The rows printed for `changes` (the header dropped), each split into its columns. */
function rows(changes: Change[]): string[][] {
  const [header, ...lines] = printer().text(changes).split('\n').slice(0, -1);
  expect(header?.split(/ {2,}/)).toEqual(['TIME', 'TYPE', 'OBJECT', 'REF', 'DESCRIPTION']);
  return lines.map((line) => line.split(/ {2,}/));
}

const cells = (change: Change, ref: string, description: string) => [
  formatDate(change.occurredAt, 'seconds'),
  change.type,
  change.objectId,
  ref,
  description,
];

describe('the changes table, for every change type', () => {
  it('has an example for every type of the contract', () => {
    expect(CHANGE_TYPES.map((type) => example(type).type)).toEqual(CHANGE_TYPES);
  });

  it('an item: its SKU and title; a deletion, the ones seen before it', () => {
    const updated = example('item.updated');
    const item = updated.data as Item;
    const deleted = { ...example('item.deleted'), objectId: item.id };
    expect(rows([updated, deleted])).toEqual([
      cells(updated, item.sku, item.title),
      cells(deleted, item.sku, item.title),
    ]);
    // A deletion of an item this run never saw: nothing to name it by.
    const unseen = { ...deleted, objectId: '00000000-0000-4000-8000-000000000000' };
    expect(rows([unseen])).toEqual([cells(unseen, '-', '-')]);
  });

  it("a valuation: the item's SKU when the run saw the item, and the valuation's summary", () => {
    const valuation = example('valuation.created');
    if (valuation.type !== 'valuation.created') return expect.fail('not a valuation');
    const summary = valuation.data.summary ?? expect.fail('the example has no summary');
    // Not seen: the valuation names its item by id only.
    expect(rows([valuation])).toEqual([cells(valuation, '-', summary)]);
    // Seen: the item's change came first (as the feed has it when an estimate is applied, the other way round).
    const item = { ...example('item.updated'), objectId: valuation.data.itemId } as Change;
    const sku = (item.data as Item).sku;
    expect(rows([item, valuation]).at(1)).toEqual(cells(valuation, sku, summary));
    // A valuation without a summary shows its estimate.
    const bare = { ...valuation, data: { ...valuation.data, summary: null, estimateInCents: 123_456 } };
    expect(rows([bare])).toEqual([cells(bare, '-', '$1,234.56')]);
  });

  it('a consignment: its number and name; an invoice: its number and customer', () => {
    for (const type of ['consignment.created', 'consignment.updated'] as const) {
      const change = example(type);
      if (change.type !== type) return expect.fail(type);
      expect(change.data.number).not.toBeNull();
      expect(rows([change])).toEqual([cells(change, String(change.data.number), String(change.data.name))]);
    }
    for (const type of ['invoice.created', 'invoice.updated'] as const) {
      const change = example(type);
      if (change.type !== type) return expect.fail(type);
      const customer = change.data.customer.name ?? expect.fail('the example customer has no name');
      expect(rows([change])).toEqual([cells(change, String(change.data.number), customer)]);
      // Without a name, the email; without either, nothing.
      const emailOnly = {
        ...change,
        data: { ...change.data, customer: { id: null, name: null, email: 'a@b.example' } },
      };
      expect(rows([emailOnly])[0]?.[4]).toBe('a@b.example');
    }
    const consignment = example('consignment.created');
    if (consignment.type !== 'consignment.created') return expect.fail('not a consignment');
    const unnamed = { ...consignment, data: { ...consignment.data, number: null, name: null } };
    expect(rows([unnamed])).toEqual([cells(unnamed, '-', '-')]);
  });

  it('a type this CLI does not know (a newer server): its time, type and object, nothing more', () => {
    const unknown = { ...example('invoice.created'), type: 'invoice.voided', data: { id: 'x' } } as unknown as Change;
    expect(rows([unknown])).toEqual([cells(unknown, '-', '-')]);
  });

  it('--json: each change exactly as the API sent it, one per line, whatever its type', () => {
    const changes = CHANGE_TYPES.map(example);
    const text = printer('json').text(changes);
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .map((line) => JSON.parse(line)),
    ).toEqual(changes);
    expect(text).toBe(changes.map((change) => `${JSON.stringify(change)}\n`).join(''));
  });
});
