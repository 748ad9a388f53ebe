import type { Queryable } from '../../db/types.js';

/**
 * The marketplace's gate: whether a delivery may start now, shared by every worker through `marketplace_gates`
 * (migration 0009). Two things close it:
 * - a pause: a 429 or 503 with Retry-After (or a 429 without one) stops every delivery to the marketplace until the
 *   time has passed, not only the job that got it;
 * - the circuit: `circuitFailures` transient failures in a row (network, timeout, 5xx) open it for `openMs`; then one
 *   worker sends a single probe while the others wait. Success closes it; failure opens it again for twice as long,
 *   up to `maxOpenMs`.
 */
export interface GateSettings {
  /** Transient failures in a row that open the circuit. */
  circuitFailures: number;
  /** The circuit's first open period; each failed probe doubles it. */
  openMs: number;
  /** The longest open period. */
  maxOpenMs: number;
  /** The pause after a 429 that names no Retry-After. */
  defaultPauseMs: number;
  /** How long a probe is held: a worker that dies while probing frees it after this. */
  probeLeaseMs: number;
}

export interface GateState {
  marketplace: string;
  pausedUntil: Date;
  pauseReason: string | null;
  consecutiveFailures: number;
  circuit: 'closed' | 'open';
  openCount: number;
  openedAt: Date | null;
  probeOwner: string | null;
  probeUntil: Date | null;
}

/** May a delivery start: yes (as the circuit's one probe, when it is open), or not before `until`. */
export type GateVerdict = { open: true; probe: boolean } | { open: false; until: Date; reason: string };

/** What a delivery came to, as the gate counts it. */
export type DeliveryOutcome =
  | { kind: 'delivered' }
  /** Refused for good (4xx other than 429): the marketplace works, so it counts as an answer, not a failure. */
  | { kind: 'refused' }
  /** A 429: back-pressure, not a fault. */
  | { kind: 'throttled'; retryAfterMs: number | undefined; reason: string }
  /** Network error, timeout or 5xx (a 503's Retry-After pauses as a 429's does). */
  | { kind: 'failed'; retryAfterMs: number | undefined; reason: string };

/** The columns of `marketplace_gates g`, as GateState names them. */
const GATE_COLUMNS = (sql: Queryable) => sql`
  g.marketplace, g.paused_until AS "pausedUntil", g.pause_reason AS "pauseReason",
  g.consecutive_failures AS "consecutiveFailures", g.circuit, g.open_count AS "openCount", g.opened_at AS "openedAt",
  g.probe_owner AS "probeOwner", g.probe_until AS "probeUntil"
`;

/** The marketplace's row, made once; every worker for it calls this at start. */
export async function ensureGate(sql: Queryable, marketplace: string): Promise<void> {
  await sql`INSERT INTO marketplace_gates (marketplace) VALUES (${marketplace}) ON CONFLICT DO NOTHING`;
}

export async function readGate(sql: Queryable, marketplace: string): Promise<GateState | null> {
  const [gate] = await sql<
    GateState[]
  >`SELECT ${GATE_COLUMNS(sql)} FROM marketplace_gates g WHERE g.marketplace = ${marketplace}`;
  return gate ?? null;
}

/** Every marketplace's gate (a deployment has one marketplace; a changed MARKETPLACE_API_URL leaves the old row). */
export async function listGates(sql: Queryable): Promise<GateState[]> {
  return sql<GateState[]>`SELECT ${GATE_COLUMNS(sql)} FROM marketplace_gates g ORDER BY g.updated_at DESC`;
}

/**
 * Asks the gate, by the database's clock (the one every worker shares). Reads only, except to take the probe of an
 * open circuit whose period has passed: the UPDATE's own condition decides, so two workers never both probe.
 */
export async function passGate(
  sql: Queryable,
  marketplace: string,
  owner: string,
  probeLeaseMs: number,
): Promise<GateVerdict> {
  const [gate] = await sql<{ pausedUntil: Date; pauseReason: string | null; circuit: string; now: Date }[]>`
    SELECT paused_until AS "pausedUntil", pause_reason AS "pauseReason", circuit, clock_timestamp() AS now
    FROM marketplace_gates WHERE marketplace = ${marketplace}
  `;
  if (!gate) return { open: true, probe: false };
  if (gate.pausedUntil > gate.now) {
    return { open: false, until: gate.pausedUntil, reason: gate.pauseReason ?? 'paused' };
  }
  if (gate.circuit === 'closed') return { open: true, probe: false };
  const [probe] = await sql<{ probeUntil: Date }[]>`
    UPDATE marketplace_gates
    SET probe_owner = ${owner}, probe_until = clock_timestamp() + make_interval(secs => ${probeLeaseMs / 1000}),
        updated_at = now()
    WHERE marketplace = ${marketplace} AND circuit = 'open' AND paused_until <= clock_timestamp()
      AND (probe_owner IS NULL OR probe_until < clock_timestamp())
    RETURNING probe_until AS "probeUntil"
  `;
  if (probe) return { open: true, probe: true };
  // Another worker probes: look again when its probe lapses at the latest (its answer usually comes sooner).
  const [held] = await sql<{ probeUntil: Date | null }[]>`
    SELECT probe_until AS "probeUntil" FROM marketplace_gates WHERE marketplace = ${marketplace}
  `;
  return { open: false, until: held?.probeUntil ?? gate.now, reason: 'circuit open: another worker is probing' };
}

/** Gives back a probe taken but not sent (this process learned of a pause meanwhile), for another worker to take. */
export async function releaseProbe(sql: Queryable, marketplace: string, owner: string): Promise<void> {
  await sql`
    UPDATE marketplace_gates SET probe_owner = NULL, probe_until = NULL, updated_at = now()
    WHERE marketplace = ${marketplace} AND probe_owner = ${owner}
  `;
}

/**
 * Counts a delivery's outcome at the gate; returns the gate afterwards when it changed. A success or a refusal
 * writes only when there is something to reset, so a healthy marketplace costs no write per delivery.
 */
export async function recordOutcome(
  sql: Queryable,
  marketplace: string,
  outcome: DeliveryOutcome,
  { probe, owner, settings }: { probe: boolean; owner: string; settings: GateSettings },
  // `owner` frees the probe it held, whatever the outcome.
): Promise<GateState | null> {
  if (outcome.kind === 'delivered' || outcome.kind === 'refused') {
    // Any success shows the marketplace works again, a probe's or one sent before the circuit opened.
    const [gate] = await sql<GateState[]>`
      UPDATE marketplace_gates g
      SET consecutive_failures = 0, circuit = 'closed', open_count = 0, opened_at = NULL,
          probe_owner = NULL, probe_until = NULL, updated_at = now()
      WHERE g.marketplace = ${marketplace} AND (g.consecutive_failures > 0 OR g.circuit = 'open')
      RETURNING ${GATE_COLUMNS(sql)}
    `;
    return gate ?? null;
  }
  const pauseMs = outcome.retryAfterMs ?? (outcome.kind === 'throttled' ? settings.defaultPauseMs : 0);
  const failed = outcome.kind === 'failed';
  // The open period after this failure when it opens (or, from a probe, reopens) the circuit.
  const [gate] = await sql<GateState[]>`
    WITH next AS (
      SELECT marketplace,
        consecutive_failures + ${failed ? 1 : 0} AS failures,
        CASE
          WHEN NOT ${failed} THEN NULL
          WHEN circuit = 'open' AND ${probe} THEN
            least(${settings.openMs}::float8 * power(2, open_count), ${settings.maxOpenMs}::float8)
          WHEN circuit = 'closed' AND consecutive_failures + 1 >= ${settings.circuitFailures} THEN ${settings.openMs}::float8
        END AS open_ms
      FROM marketplace_gates WHERE marketplace = ${marketplace}
      FOR UPDATE
    )
    UPDATE marketplace_gates g SET
      consecutive_failures = next.failures,
      circuit = CASE WHEN next.open_ms IS NOT NULL THEN 'open' ELSE g.circuit END,
      open_count = CASE WHEN next.open_ms IS NOT NULL THEN g.open_count + 1 ELSE g.open_count END,
      opened_at = CASE WHEN next.open_ms IS NOT NULL AND g.circuit = 'closed' THEN clock_timestamp() ELSE g.opened_at END,
      paused_until = greatest(
        g.paused_until,
        clock_timestamp() + make_interval(secs => ${pauseMs / 1000}),
        clock_timestamp() + make_interval(secs => coalesce(next.open_ms, 0) / 1000)
      ),
      pause_reason = CASE
        WHEN next.open_ms IS NOT NULL THEN ${`circuit open after ${outcome.reason}`}
        WHEN ${pauseMs} > 0 THEN ${outcome.reason}
        ELSE g.pause_reason
      END,
      probe_owner = CASE WHEN ${probe} AND g.probe_owner = ${owner} THEN NULL ELSE g.probe_owner END,
      probe_until = CASE WHEN ${probe} AND g.probe_owner = ${owner} THEN NULL ELSE g.probe_until END,
      updated_at = now()
    FROM next
    WHERE g.marketplace = next.marketplace
    RETURNING ${GATE_COLUMNS(sql)}
  `;
  return gate ?? null;
}
