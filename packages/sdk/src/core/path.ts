import { CoinventoryError } from './errors.js';

/** The `:name` parameters of a route path template such as `/items/:id/valuations`. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a route path template needs: `{ id: string }` for `/items/:id`, nothing for `/items`. */
export type PathParams<Path extends string> = [PathParamNames<Path>] extends [never]
  ? Record<string, never>
  : Record<PathParamNames<Path>, string>;

/**
 * Fills a route path template with percent-encoded values: `path('/items/:id', { id })`.
 * Refuses values that would not stay one path segment (empty, `.` or `..`), so no value can reach another route.
 */
export function path<Path extends string>(template: Path, params: PathParams<Path>): string {
  return fillPath(template, params);
}

/** {@link path} without the types, for callers that hold a route chosen at run time. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value: unknown = (params as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new CoinventoryError(
        `Path parameter \`${name}\` must be a non-empty string; got ${JSON.stringify(value)}.`,
      );
    }
    return encodeURIComponent(value);
  });
}
