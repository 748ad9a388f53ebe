import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/connect.js';
import { createTestDatabase } from './support/database.js';

/**
 * rate_limit_admit (migrations 0002 and 0004) called directly, its answers checked against the ring it keeps.
 *
 * An admitted request's slot holds the time the function stamped it with, which is also the "now" it decided
 * with; from the ring at that moment the exact answer follows: `remaining` is the limit minus the admissions less
 * than a window old, and `reset` the time until the oldest of them leaves. The remembered `window_start` must be
 * that oldest admission and must never move back. Bursts, pauses longer than the window (which make the search
 * gallop over many expired admissions) and a change of limit are all exercised.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

interface Answer {
  admitted: boolean;
  remaining: number;
  reset_ms: number;
  retry_after_ms: number;
}

async function admit(key: string, max: number, windowMs: number): Promise<Answer> {
  const [row] = await database.sql<Answer[]>`SELECT * FROM rate_limit_admit(${key}, ${max}, ${windowMs})`;
  if (!row) throw new Error('no answer');
  return row;
}

/** The ring in admission order, and the state row. */
async function ringOf(key: string, max: number) {
  const [state] = await database.sql<{ admitted: number; window_start: number }[]>`
    SELECT admitted, window_start FROM rate_limit_state WHERE key_id = ${key}
  `;
  if (!state) throw new Error('no state');
  const slots = await database.sql<{ slot: number; at: Date }[]>`
    SELECT slot, admitted_at AS at FROM rate_limit_slots WHERE key_id = ${key}
  `;
  const bySlot = new Map(slots.map((s) => [s.slot, s.at]));
  const admissions: Array<{ n: number; at: Date }> = [];
  for (let n = Math.max(1, state.admitted - max + 1); n <= state.admitted; n++) {
    const at = bySlot.get(n % max);
    if (!at) throw new Error(`admission ${n} missing from the ring`);
    admissions.push({ n, at });
  }
  return { state, admissions };
}

/** Checks an admitted request's answer against its ring; returns the remembered window start. */
async function expectExact(key: string, max: number, windowMs: number, answer: Answer, previousStart: number) {
  const { state, admissions } = await ringOf(key, max);
  const newest = admissions[admissions.length - 1];
  if (!newest) throw new Error('an admitted request left no admission');
  // Times are microseconds in PostgreSQL and milliseconds here: compare at the millisecond, away from the edge.
  const now = newest.at.getTime();
  const inside = admissions.filter((a) => a.at.getTime() > now - windowMs);
  const first = inside[0];
  if (!first) throw new Error('the newest admission is always inside the window');
  const edge = admissions.some((a) => Math.abs(a.at.getTime() - (now - windowMs)) <= 1);
  if (!edge) {
    expect(answer.remaining).toBe(max - inside.length);
    expect(state.window_start).toBe(first.n);
    expect(Math.abs(answer.reset_ms - (first.at.getTime() + windowMs - now))).toBeLessThanOrEqual(1);
  }
  expect(state.window_start).toBeGreaterThanOrEqual(previousStart);
  return state.window_start;
}

describe('rate_limit_admit', () => {
  it('answers exactly from its ring through bursts and pauses longer than the window', async () => {
    const key = randomUUID();
    const max = 25;
    const windowMs = 400;
    let start = 1;
    let checked = 0;
    let refused = 0;
    // Bursts of up to 40 requests (some beyond the limit), with pauses from none to well past the window.
    const pauses = [0, 5, 30, 120, 450, 10, 0, 250, 900, 60, 0, 15, 500, 35, 180];
    for (const [round, pause] of pauses.entries()) {
      const burst = 5 + ((round * 7) % 36);
      for (let i = 0; i < burst; i++) {
        const answer = await admit(key, max, windowMs);
        if (answer.admitted) {
          start = await expectExact(key, max, windowMs, answer, start);
          checked += 1;
        } else {
          refused += 1;
          expect(answer.remaining).toBe(0);
          expect(answer.retry_after_ms).toBeGreaterThan(0);
          expect(answer.retry_after_ms).toBeLessThanOrEqual(windowMs);
        }
        if (i % 3 === 0) await sleep(3);
      }
      await sleep(pause);
    }
    expect(checked).toBeGreaterThan(80);
    expect(refused).toBeGreaterThan(0);
  });

  it('starts a new ring, and a new window start, when the limit changes', async () => {
    const key = randomUUID();
    for (let i = 0; i < 12; i++) await admit(key, 10, 60_000);
    expect((await admit(key, 10, 60_000)).admitted).toBe(false);
    const answer = await admit(key, 30, 60_000);
    expect(answer).toMatchObject({ admitted: true, remaining: 29 });
    const { state } = await ringOf(key, 30);
    expect(state).toMatchObject({ admitted: 1, window_start: 1 });
  });

  it('refuses at the limit without moving anything, then frees one slot per admission that ages out', async () => {
    const key = randomUUID();
    const windowMs = 300;
    for (let i = 0; i < 3; i++) {
      expect((await admit(key, 3, windowMs)).admitted).toBe(true);
      await sleep(40);
    }
    const before = await ringOf(key, 3);
    const refusedAnswer = await admit(key, 3, windowMs);
    expect(refusedAnswer).toMatchObject({ admitted: false, remaining: 0 });
    expect((await ringOf(key, 3)).state).toEqual(before.state);
    // The first of the three leaves the window first: exactly one request is admitted then.
    await sleep(Math.max(0, refusedAnswer.retry_after_ms) + 5);
    const next = await admit(key, 3, windowMs);
    expect(next.admitted).toBe(true);
    expect(next.remaining).toBe(0);
    expect((await admit(key, 3, windowMs)).admitted).toBe(false);
  });
});
