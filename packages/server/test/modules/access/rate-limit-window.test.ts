import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/connect.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * rate_limit_admit (migrations 0002, 0004 and 0006) called directly, its answers checked against the ring it keeps.
 *
 * An admitted request's slot holds the time the function stamped it with, which is also the "now" it decided
 * with; from the ring at that moment the exact answer follows: `remaining` is the limit minus the admissions less
 * than a window old, and `reset` the time until the oldest of them leaves. The remembered `window_start` must be
 * that oldest admission and must never move back. Bursts, pauses longer than the window (which make the search
 * gallop over many expired admissions) and changes of limit, one after another or taking turns, are all exercised.
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

/**
 * The ring in admission order, and the state row. Admissions older than the ring was when it grew are missing:
 * only at its old end.
 */
async function ringOf(key: string) {
  const [state] = await database.sql<{ admitted: number; window_start: number; max_requests: number }[]>`
    SELECT admitted, window_start, max_requests FROM rate_limit_state WHERE key_id = ${key}
  `;
  if (!state) throw new Error('no state');
  const size = state.max_requests;
  const slots = await database.sql<{ slot: number; at: Date }[]>`
    SELECT slot, admitted_at AS at FROM rate_limit_slots WHERE key_id = ${key}
  `;
  const bySlot = new Map(slots.map((s) => [s.slot, s.at]));
  const admissions: Array<{ n: number; at: Date }> = [];
  for (let n = Math.max(1, state.admitted - size + 1); n <= state.admitted; n++) {
    const at = bySlot.get(n % size);
    if (at) admissions.push({ n, at });
    else if (admissions.length > 0) throw new Error(`admission ${n} missing from the ring`);
  }
  expect(admissions).toHaveLength(slots.length);
  return { state, admissions };
}

/** Checks an admitted request's answer against its ring; returns the remembered window start. */
async function expectExact(key: string, max: number, windowMs: number, answer: Answer, previousStart: number) {
  const { state, admissions } = await ringOf(key);
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

  it('keeps its ring when the limit changes: a larger limit grows it, a smaller one reads it as it is', async () => {
    const key = randomUUID();
    for (let i = 0; i < 12; i++) await admit(key, 10, 60_000);
    expect((await admit(key, 10, 60_000)).admitted).toBe(false);
    // The ten admissions of this window still count for a limit of 30 …
    const answer = await admit(key, 30, 60_000);
    expect(answer).toMatchObject({ admitted: true, remaining: 19 });
    const { state, admissions } = await ringOf(key);
    expect(state).toMatchObject({ admitted: 11, window_start: 1 });
    expect(admissions.map((a) => a.n)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    // … and the eleven now in it for a limit of 10, which stays refused with its own figures.
    expect(await admit(key, 10, 60_000)).toMatchObject({ admitted: false, remaining: 0 });
    for (let i = 0; i < 19; i++) expect((await admit(key, 30, 60_000)).admitted).toBe(true);
    expect(await admit(key, 30, 60_000)).toMatchObject({ admitted: false, remaining: 0 });
    expect((await ringOf(key)).state.admitted).toBe(30);
  });

  it('never leaves more than a caller’s own limit in its window, with two limits taking turns', async () => {
    const key = randomUUID();
    const windowMs = 300;
    const limits = [5, 6];
    // Every admission's time, whichever limit admitted it, read back from the ring.
    const log: number[] = [];
    let refused = 0;
    for (let i = 0; i < 240; i++) {
      const max = limits[(i * 7) % 5 < 3 ? 0 : 1] ?? 5;
      const answer = await admit(key, max, windowMs);
      if (answer.admitted) {
        const { state, admissions } = await ringOf(key);
        expect(state.admitted).toBe(log.length + 1);
        const newest = admissions[admissions.length - 1];
        if (!newest) throw new Error('no admission');
        const now = newest.at.getTime();
        log.push(now);
        const inside = log.filter((at) => at > now - windowMs).length;
        expect(inside, `admission ${log.length} by the limit of ${max}`).toBeLessThanOrEqual(max);
        if (!log.some((at) => Math.abs(at - (now - windowMs)) <= 1)) expect(answer.remaining).toBe(max - inside);
      } else {
        refused += 1;
        expect(answer.remaining).toBe(0);
        expect(answer.retry_after_ms).toBeGreaterThan(0);
        expect(answer.retry_after_ms).toBeLessThanOrEqual(windowMs);
        expect(log.length).toBeGreaterThanOrEqual(max);
      }
      if (i % 3 === 0) await sleep(10);
    }
    expect(refused).toBeGreaterThan(0);
    expect(log.length).toBeGreaterThanOrEqual(12);
  });

  it('shrinks back to a smaller limit only after a window without an admission of the larger', async () => {
    const key = randomUUID();
    // Long enough for nine statements in a row to fall in one window however loaded the machine.
    const windowMs = 1_500;
    for (let i = 0; i < 8; i++) expect((await admit(key, 8, windowMs)).admitted).toBe(true);
    // Within the window of the last admission at 8, the ring keeps its size for the limit of 8 …
    expect(await admit(key, 3, windowMs)).toMatchObject({ admitted: false, remaining: 0 });
    const sizeOf = async () => {
      const [row] = await database.sql<{ size: number; slots: number }[]>`
        SELECT s.max_requests AS size, (SELECT count(*)::int FROM rate_limit_slots r WHERE r.key_id = s.key_id) AS slots
        FROM rate_limit_state s WHERE s.key_id = ${key}
      `;
      return row;
    };
    expect(await sizeOf()).toEqual({ size: 8, slots: 8 });
    await sleep(windowMs + 20);
    // … and a window later it holds only what the limit of 3 reads.
    expect(await admit(key, 3, windowMs)).toMatchObject({ admitted: true, remaining: 2 });
    expect(await sizeOf()).toEqual({ size: 3, slots: 3 });
    expect((await admit(key, 3, windowMs)).remaining).toBe(1);
    // The larger limit grows it again, counting the two admissions of this window.
    expect(await admit(key, 8, windowMs)).toMatchObject({ admitted: true, remaining: 5 });
    expect(await sizeOf()).toEqual({ size: 8, slots: 4 });
    const { admissions } = await ringOf(key);
    expect(admissions.map((a) => a.n)).toEqual([8, 9, 10, 11]);
  });

  it('refuses at the limit without moving anything, then frees one slot per admission that ages out', async () => {
    const key = randomUUID();
    // Long enough that three admissions 200 ms apart and the refusal fall in one window however loaded the machine.
    const windowMs = 2_000;
    for (let i = 0; i < 3; i++) {
      expect((await admit(key, 3, windowMs)).admitted).toBe(true);
      await sleep(200);
    }
    const before = await ringOf(key);
    const refusedAnswer = await admit(key, 3, windowMs);
    expect(refusedAnswer).toMatchObject({ admitted: false, remaining: 0 });
    expect((await ringOf(key)).state).toEqual(before.state);
    // Once the first of the three has left the window, one more is admitted, and the answer counts exactly the
    // admissions still inside it: one aged out, unless the machine overslept past the second too.
    await sleep(Math.max(0, refusedAnswer.retry_after_ms) + 5);
    const next = await admit(key, 3, windowMs);
    expect(next.admitted).toBe(true);
    const { admissions } = await ringOf(key);
    const newest = admissions[admissions.length - 1]?.at.getTime() ?? 0;
    const agedOut = before.admissions.filter((a) => a.at.getTime() <= newest - windowMs).length;
    expect(agedOut).toBeGreaterThanOrEqual(1);
    expect(next.remaining).toBe(agedOut - 1);
    if (next.remaining === 0) expect((await admit(key, 3, windowMs)).admitted).toBe(false);
  });
});
