import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type ClientOptions, Coinventory } from '../../src/index.js';

/** Unit tests talk to this made-up address; msw answers, and any request no handler expects fails the test. */
export const BASE_URL = 'https://api.coinventory.test/v1';
export const API_KEY = 'cvk_live_unitTestKeyunitTestKeyunitTestKey00';

export const server = setupServer();

export function useMsw(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

export const url = (path: string): string => `${BASE_URL}${path}`;

export const makeClient = (options: ClientOptions = {}): Coinventory =>
  new Coinventory({ apiKey: API_KEY, baseUrl: BASE_URL, ...options });

/** An error body as the API sends it. */
export const errorBody = (code: string, message: string, issues?: { message: string }[]) => ({
  code,
  message,
  ...(issues ? { issues } : {}),
});
