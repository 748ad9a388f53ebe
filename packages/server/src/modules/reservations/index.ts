/** Reservations: units of an item held for a customer until they are committed, released, or expire. */
// Loading it subscribes the webhooks module to the changes it records (see items/index.ts).
import '../items/index.js';

export { checkInventory } from './check.js';
export { startReservationExpiry } from './expiry.js';
export { reservationRead, reservationsRoutes } from './routes.js';
export { holdReservedUnits, RESERVATIONS } from './store.js';
