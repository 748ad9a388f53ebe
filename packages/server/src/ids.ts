/** True for text shaped like a UUID: how operator commands tell an id from a slug, an email or a SKU. */
export const looksLikeUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
