import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { contract, type RouteMetadata } from './contract.js';

export interface ContractRoute {
  /** Dotted position in the contract, for example `items.list`. */
  key: string;
  route: AppRoute & { metadata: RouteMetadata };
}

function walk(router: AppRouter, prefix: string[], into: ContractRoute[]): ContractRoute[] {
  for (const [name, entry] of Object.entries(router)) {
    const key = [...prefix, name];
    if (isAppRoute(entry)) into.push({ key: key.join('.'), route: entry as ContractRoute['route'] });
    else walk(entry, key, into);
  }
  return into;
}

/** Every route of the contract, flattened, in definition order. */
export const contractRoutes: readonly ContractRoute[] = walk(contract, [], []);

/** The status codes a route declares, ascending. */
export const declaredStatuses = (route: AppRoute): number[] =>
  Object.keys(route.responses)
    .map(Number)
    .sort((a, b) => a - b);
