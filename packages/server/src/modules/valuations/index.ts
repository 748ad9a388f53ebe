/** The valuation engine: estimates from comparable sales, the price guide and metal content (engine.ts). */
export { dollars, type Estimate, estimate, identityOf, itemIdentity, meltValueOf, type Sale } from './engine.js';
export { PRICE_GUIDE_IMPORT, SALES_IMPORT } from './imports.js';
export {
  listSpotPrices,
  setPolicy,
  setSpotPrice,
  showPolicy,
  type ValuateResult,
  valuate,
} from './operator.js';
export { copyValuationsToSandbox, countValuations } from './sandbox.js';
export { startValuationScheduler } from './scheduler.js';
export {
  type ComparableSaleRow,
  compRow,
  gradeKeyOf,
  guideKey,
  insertValuationRows,
  insertValuationSourceRows,
  type PriceGuideEntryRow,
  type SpotPriceRow,
  valuationColumns,
} from './store.js';
