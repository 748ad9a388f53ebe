import { z } from 'zod';
import {
  ACTOR_TYPES,
  ADJUSTMENT_REASONS,
  LIMITS,
  MOVEMENT_KINDS,
  RESERVATIONS,
  type ReservationStatus,
} from '../constants.js';
import { dateTime, text, uuid } from '../primitives.js';
import { listEnvelope } from './common.js';
import { codeList, count, listLimitQuery, nullable, pageQuery, strictObject } from './fields.js';

/**
 * Selling one coin in several places: signed adjustments of an item's quantities, reservations that hold units while
 * a customer pays, and the ledger of every movement, each naming who made it.
 */

export const ActorSchema = strictObject(
  "Who made a change: an API key (its id and name), the operator (commands and imports), or one of the server's own workers (`system`). Never a secret.",
  {
    type: z.enum(ACTOR_TYPES).describe(`${codeList(ACTOR_TYPES)}.`),
    id: nullable.string("The API key's id (`key`), or the worker's name (`system`); null for the operator."),
    name: nullable.string("The API key's name (`key`), or what the worker does (`system`); null for the operator."),
  },
);

const reference = text(LIMITS.reference).describe(
  `What the write is for, ${LIMITS.reference.min} to ${LIMITS.reference.max} characters: an order, receipt or cart number.`,
);
const delta = z.number().int().min(LIMITS.quantityDelta.min).max(LIMITS.quantityDelta.max);

export const AdjustItemBodySchema = z
  .object({
    available: delta.optional().describe('Units to add to `quantity.available` (negative: to take away). Default 0.'),
    sold: delta.optional().describe('Units to add to `quantity.sold` (negative: to take away). Default 0.'),
    reason: z.enum(ADJUSTMENT_REASONS).describe(`Why: ${codeList(ADJUSTMENT_REASONS)}.`),
    reference: reference.optional(),
  })
  .strict()
  .refine((body) => (body.available ?? 0) !== 0 || (body.sold ?? 0) !== 0, {
    message: 'available or sold must be a non-zero number of units',
    path: ['available'],
  })
  .describe(
    'Signed changes of the quantities, applied together under the item\'s lock: `{ "available": -1, "sold": 1, "reason": "sale" }` sells one unit. At least one of `available` and `sold` is not 0.',
  );

const movedBy = (what: string) => z.number().int().describe(`How many units ${what} moved (signed).`);
export const MovementDeltaSchema = strictObject('How much each quantity moved, signed.', {
  available: movedBy('`available`'),
  sold: movedBy('`sold`'),
  reserved: movedBy('`reserved`'),
});

export const MovementAfterSchema = strictObject('The quantities right after the movement.', {
  available: count('Units available to sell.'),
  sold: count('Units sold.'),
  reserved: count('Units held by reservations.'),
});

export const MovementSchema = strictObject(
  "One movement of an item's quantities: what moved them, by how much, what they were after it, and who did it.",
  {
    id: uuid.describe('Movement id.'),
    itemId: uuid.describe("The item's id."),
    kind: z
      .enum(MOVEMENT_KINDS)
      .describe(
        `What moved them: ${codeList(MOVEMENT_KINDS)}. \`opening\` is what the item had when its ledger began; \`set\` a \`PATCH\` of \`quantity\`; \`reserve\`, \`commit\`, \`release\` and \`expire\` a reservation's steps.`,
      ),
    reason: z.enum(ADJUSTMENT_REASONS).nullable().describe("An adjustment's reason; null for the other kinds."),
    reference: nullable.string("The adjustment's or reservation's reference, when it had one."),
    delta: MovementDeltaSchema,
    after: MovementAfterSchema,
    actor: ActorSchema,
    occurredAt: dateTime.describe("When it happened (its transaction's start)."),
  },
);

export const ListMovementsQuerySchema = z.object({ page: pageQuery, limit: listLimitQuery }).strict();

export const MovementListSchema = listEnvelope(MovementSchema, "A page of an item's movements, newest first.");

const statusOf = (status: ReservationStatus) => `\`${status}\``;

export const ReservationSchema = strictObject('Units of an item held for a customer.', {
  id: uuid.describe('Reservation id.'),
  itemId: uuid.describe("The item's id."),
  quantity: z.number().int().min(1).describe('Units held.'),
  status: z
    .enum(RESERVATIONS.statuses)
    .describe(
      `${statusOf('held')} while the units are reserved; ${statusOf('committed')} once sold, ${statusOf('released')} once given back, ${statusOf('expired')} once the server gave them back at \`expiresAt\`. Only a held reservation can be committed or released.`,
    ),
  reference: nullable.string('What the units are held for: an order, cart or checkout number.'),
  expiresAt: dateTime.describe('When a held reservation expires: its units go back to `available` within seconds.'),
  createdAt: dateTime.describe('When it was made.'),
  updatedAt: nullable.dateTime('When its status last changed; null while it has not.'),
});

export const CreateReservationBodySchema = z
  .object({
    quantity: z.number().int().min(1).max(LIMITS.quantity.max).describe('Units to hold, 1 or more.'),
    expiresInSeconds: z
      .number()
      .int()
      .min(RESERVATIONS.expiresInSeconds.min)
      .max(RESERVATIONS.expiresInSeconds.max)
      .default(RESERVATIONS.expiresInSeconds.default)
      .describe(
        `How long to hold them, ${RESERVATIONS.expiresInSeconds.min} to ${RESERVATIONS.expiresInSeconds.max} seconds; default ${RESERVATIONS.expiresInSeconds.default}.`,
      ),
    reference: reference.optional(),
  })
  .strict()
  .describe('What to hold: how many units of the item, for how long, and for what.');

export const ListReservationsQuerySchema = z
  .object({
    itemId: uuid.optional().describe("Only this item's reservations."),
    status: z.enum(RESERVATIONS.statuses).optional().describe('Only reservations in this state.'),
    reference: reference.optional().describe('Only reservations with exactly this reference.'),
    page: pageQuery,
    limit: listLimitQuery,
  })
  .strict();

export const ReservationListSchema = listEnvelope(ReservationSchema, 'A page of reservations, newest first.');
