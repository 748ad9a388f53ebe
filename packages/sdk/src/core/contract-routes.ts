import type { Contract } from '@coinventory/contract';
import type { RouteKey } from '@coinventory/contract/routes';

// Imported elsewhere as '#contract-routes' (a tsconfig path), never by its file name: the published declarations
// cannot carry the router, whose types need zod and ts-rest, so the declaration build maps that name to the map
// below resolved to the contract's named types (scripts/flatten-contract-types.mjs prints it).

/** The contract's route at a dotted key: `items.get` is `contract.items.get`. */
type RouteAt<Router, Key extends string> = Key extends `${infer Head}.${infer Rest}`
  ? Head extends keyof Router
    ? RouteAt<Router[Head], Rest>
    : never
  : Key extends keyof Router
    ? Router[Key]
    : never;

/**
 * What a zod schema parses to (`z.infer`), read from the schema's own type so the SDK needs no zod; for a response
 * of another media type (the export's text), what its body schema parses to.
 */
type Parsed<Schema> = Schema extends { _output: infer T }
  ? T
  : Schema extends { contentType: string; body: infer Body }
    ? Parsed<Body>
    : never;

/** Each route's success (200) body, by route key, as the contract declares it. */
export type RouteResponses = { [K in RouteKey]: Parsed<RouteAt<Contract, K>['responses'][200]> };
