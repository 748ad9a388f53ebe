import type { Scope } from '@coinventory/contract';
import type { Plan, Role } from '../../modules/organizations/index.js';
import type { CategoryKey, PlaceKey } from './shapes.js';

/**
 * The demo shop itself: the organization, its people and the key the seed issues, its warehouses' zones and its
 * categories. All URLs and emails use the reserved `.example` domains, so nothing points at a real site or inbox.
 */

/** A fixed "now", so the data (and so every API answer but ids and the key) is identical run after run. */
export const DEMO_ANCHOR = new Date('2026-11-16T17:00:00.000Z');

/** The demo organization's slug; seeding refuses to run twice. */
export const DEMO_SLUG = 'liberty-coin';
export const ORGANIZATION = {
  name: 'Liberty Coin & Bullion',
  slug: DEMO_SLUG,
  plan: 'business' satisfies Plan,
} as const;

export const PEOPLE: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'owner@liberty-coin.example', name: 'Dana Whitfield', role: 'owner' },
  { email: 'marcus@liberty-coin.example', name: 'Marcus Reyes', role: 'admin' },
  { email: 'jamie@liberty-coin.example', name: 'Jamie Chen', role: 'member' },
];

export const KEY_SCOPES: Scope[] = ['read', 'write'];

/**
 * Zones besides the default warehouse's first zone ('Receiving', made with the organization). 'main' is that
 * default warehouse; 'show' is the "Show inventory" warehouse the builder adds.
 */
export const EXTRA_ZONES: ReadonlyArray<{ key: PlaceKey; warehouse: 'main' | 'show'; name: string; position: number }> =
  [
    { key: 'vault', warehouse: 'main', name: 'Vault A', position: 2 },
    { key: 'showcase', warehouse: 'main', name: 'Showcase', position: 3 },
    { key: 'caseA', warehouse: 'show', name: 'Travel case A (slabs)', position: 1 },
    { key: 'caseB', warehouse: 'show', name: 'Travel case B (bullion & sets)', position: 2 },
  ];

export const CATEGORIES: ReadonlyArray<{ key: CategoryKey; name: string }> = [
  { key: 'morgan', name: 'Morgan Dollars' },
  { key: 'gold', name: 'Gold Eagles' },
  { key: 'bullion', name: 'Bullion' },
  { key: 'ancient', name: 'Ancient Coins' },
  { key: 'proof', name: 'Proof Sets' },
];
