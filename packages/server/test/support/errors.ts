import { ERROR_CODES, ERRORS, type ErrorCode } from '@coinventory/contract';
import { expect } from 'vitest';
import { type ApiResponse, expectStatus } from './http.js';

/** The body of an error that names no issues: its code and the contract's message for it. */
export interface PlainErrorBody<C extends ErrorCode = ErrorCode> {
  code: C;
  message: (typeof ERRORS)[C]['message'];
}

/** Every error's exact body, by code, built from the contract's `ERRORS`, so no test restates a message. */
export const ERROR_BODY = Object.fromEntries(
  ERROR_CODES.map((code) => [code, { code, message: ERRORS[code].message }]),
) as { readonly [C in ErrorCode]: PlainErrorBody<C> };

/** The exact 400 body whose issues are these messages, in this order. */
export const badRequestBody = (...messages: string[]) => ({
  ...ERROR_BODY.BAD_REQUEST,
  issues: messages.map((message) => ({ message })),
});

/**
 * A 400 with the exact code and message and one `{ message }` per failing field, each message starting with the
 * field's location (`body.sku: …`, `query.limit: …`, `path.id: …`); together they name exactly `locations`.
 * `mentions` are texts the messages must contain (an unknown key's name).
 */
export function expectBadRequest(response: ApiResponse, locations: readonly string[], mentions: string[] = []): void {
  expectStatus(response, 400);
  expect(response.body).toEqual({ ...ERROR_BODY.BAD_REQUEST, issues: expect.any(Array) });
  const { issues } = response.body as { issues: unknown[] };
  expect(issues, JSON.stringify(issues)).toHaveLength(locations.length);
  for (const issue of issues) expect(issue).toEqual({ message: expect.any(String) });
  const messages = (issues as { message: string }[]).map((issue) => issue.message);
  for (const message of messages) expect(message).toMatch(/^[a-z]+(\.[^:]*)?: \S/);
  expect(messages.map((message) => message.slice(0, message.indexOf(': '))).sort()).toEqual([...locations].sort());
  for (const mention of mentions) expect(messages.join('\n')).toContain(mention);
}
