/** The valuation engine: estimates from comparable sales, the price guide and metal content (engine.ts). */
export { dollars, estimate, identityOf, itemIdentity, meltValueOf } from './engine.js';
export { PRICE_GUIDE_IMPORT, SALES_IMPORT } from './imports.js';
export {
  listSpotPrices,
  setPolicy,
  setSpotPrice,
  showPolicy,
  type ValuateResult,
  valuate,
} from './operator.js';
export { startValuationScheduler } from './scheduler.js';
