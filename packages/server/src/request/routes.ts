import type { initServer } from '@ts-rest/express';

/**
 * A module's handlers for its part of the contract, checked against it: ts-rest's `initServer().router`, which
 * returns the handlers as they are, as a type alone. A module's routes then load no HTTP stack, so an operator command
 * that uses the module's services starts without Express; http/router.ts mounts them with ts-rest.
 */
export const routesFor: ReturnType<typeof initServer>['router'] = (_contract, routes) => routes;

/** One route's handler, checked against its contract route (ts-rest's `initServer().route`, as a type alone). */
export const routeFor: ReturnType<typeof initServer>['route'] = (_contract, route) => route;
