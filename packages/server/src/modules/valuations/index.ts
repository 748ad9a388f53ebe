/** The valuation engine: estimates from comparable sales, the price guide and metal content (engine.ts). */
export { estimate, identityOf, meltValueOf } from './engine.js';
export { listSpotPrices, setSpotPrice, type ValuateResult, valuate } from './operator.js';
