import type { Fragment } from '../db/table.js';
import type { Queryable } from '../db/types.js';

/**
 * A route's read that travels in its request's authentication statement: one round trip looks the key up, reads
 * the resource and counts the request. The read comes before the count, so it never runs under the key's row lock,
 * and only for a key that may call with the route's scope and whose next admission is free by a look at its ring: a
 * request over its limit reads nothing (modules/access/store.ts). An admitted request whose statement did not read
 * reads by itself (`read`). Declared beside its route (`readOne` in request/pipeline.ts answers it).
 */
export interface GatedRead<T> {
  /** The route it answers, by its contract operationId. */
  readonly operationId: string;
  /**
   * The query reading it for these path parameters, given the organization as a value or as an SQL expression (the
   * key's organization, as the authentication statement finds it); null when the parameters are not valid, and the
   * request goes the usual way (its 400 comes after authentication, as every route's).
   */
  queryFor(params: unknown): ((sql: Queryable, organizationId: string | Fragment) => Fragment) | null;
  /** The API object of the JSON row it read; null when there was none. */
  fromJson(json: unknown): T | null;
  /** The same query run by itself: for a request whose authentication statement did not carry it. */
  read(sql: Queryable, organizationId: string, params: unknown): Promise<T | null>;
}

/** One object by id: the organization given as a value, or as an SQL expression when the read travels with the key's. */
export type ById = (sql: Queryable, organizationId: string | Fragment, id: string) => Fragment;

/** A route's path parameters as the contract validates them: `{ id }`. */
interface IdRoute {
  readonly metadata: { readonly operationId: string };
  readonly pathParams: { safeParse(params: unknown): { success: true; data: { id: string } } | { success: false } };
}

/** The gated read of a `GET /…/{id}` route: `byId`'s row, mapped by its table. */
export function readById<T>(
  route: IdRoute,
  table: { fromJson(json: unknown): T | null; first(query: Fragment): Promise<T | null> },
  byId: ById,
): GatedRead<T> {
  const queryFor: GatedRead<T>['queryFor'] = (params) => {
    const parsed = route.pathParams.safeParse(params);
    return parsed.success ? (sql, organizationId) => byId(sql, organizationId, parsed.data.id) : null;
  };
  return {
    operationId: route.metadata.operationId,
    queryFor,
    fromJson: (json) => table.fromJson(json),
    read: async (sql, organizationId, params) => {
      const query = queryFor(params);
      return query ? table.first(query(sql, organizationId)) : null;
    },
  };
}
