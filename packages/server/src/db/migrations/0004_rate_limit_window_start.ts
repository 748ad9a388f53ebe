/**
 * The rate limiter's count in O(1), and fewer statements inside the per-key lock.
 *
 * Every request of a key runs rate_limit_admit while holding that key's state row lock, so its cost bounds what one
 * key can do per second. Migration 0002 found the first admission still inside the window by a binary search over
 * the whole ring: log2(max_requests) index probes per request (17 to 20 with a limit raised to a million for a
 * load test), plus an INSERT … ON CONFLICT on every call. The benchmark (bench/, `pnpm bench`) measured the
 * function at 0.2 ms of the 0.4 ms a request holds the lock.
 *
 * That first admission never moves back (the window slides forward with the database's clock, and admissions of
 * a key are stamped in order), so the state row now remembers it (`window_start`) and each request searches
 * forward from there: galloping (1, 2, 4, … admissions ahead) and then bisecting, which is one or two probes when
 * requests keep coming and O(log n) after a quiet spell. The decision itself, the ring and the answers are
 * unchanged: the same admissions are admitted, with the same remaining count and reset.
 */
export const name = 'rate_limit_window_start';

export const up = /* sql */ `
ALTER TABLE rate_limit_state
  -- The number of the oldest admission that may still be inside the window: every earlier one is known to be
  -- outside it. Only ever moves forward; 1 (the first admission) for a new or reset ring.
  ADD COLUMN window_start bigint NOT NULL DEFAULT 1;

CREATE OR REPLACE FUNCTION rate_limit_admit(p_key uuid, p_max integer, p_window_ms integer)
RETURNS TABLE (admitted boolean, remaining integer, reset_ms bigint, retry_after_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_admitted bigint;
  v_max integer;
  v_window_ms integer;
  v_start bigint;
  v_now timestamptz;
  v_window interval := make_interval(secs => p_window_ms / 1000.0);
  v_cutoff timestamptz;
  v_oldest timestamptz;
  v_lo bigint;
  v_hi bigint;
  v_mid bigint;
  v_step bigint;
  v_at timestamptz;
  -- The time of admission v_lo, the first inside the window (null when none is).
  v_first_at timestamptz;
BEGIN
  -- The row exists for every key that was ever counted: lock it, and create it only the first time.
  SELECT s.admitted, s.max_requests, s.window_ms, s.window_start INTO v_admitted, v_max, v_window_ms, v_start
  FROM rate_limit_state s WHERE s.key_id = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_state (key_id, max_requests, window_ms) VALUES (p_key, p_max, p_window_ms)
    ON CONFLICT (key_id) DO NOTHING;
    SELECT s.admitted, s.max_requests, s.window_ms, s.window_start INTO v_admitted, v_max, v_window_ms, v_start
    FROM rate_limit_state s WHERE s.key_id = p_key FOR UPDATE;
  END IF;
  IF v_max <> p_max OR v_window_ms <> p_window_ms THEN
    DELETE FROM rate_limit_slots WHERE key_id = p_key;
    v_admitted := 0;
    v_start := 1;
  END IF;
  -- Taken after the lock, so one key's admissions are stamped in the order they are decided.
  v_now := clock_timestamp();
  v_cutoff := v_now - v_window;

  -- The p_max-th most recent admission, if there have been that many: the slot this request would overwrite.
  IF v_admitted >= p_max THEN
    SELECT r.admitted_at INTO v_oldest FROM rate_limit_slots r
    WHERE r.key_id = p_key AND r.slot = (v_admitted - p_max + 1) % p_max;
  END IF;

  admitted := v_oldest IS NULL OR v_oldest <= v_cutoff;
  retry_after_ms := 0;
  IF admitted THEN
    v_admitted := v_admitted + 1;
    INSERT INTO rate_limit_slots (key_id, slot, admitted_at) VALUES (p_key, v_admitted % p_max, v_now)
    ON CONFLICT (key_id, slot) DO UPDATE SET admitted_at = excluded.admitted_at;
  ELSE
    retry_after_ms := ceil(extract(epoch FROM (v_oldest + v_window - v_now)) * 1000)::bigint;
  END IF;

  -- The first admission still inside the window, at or after the remembered one (older ones have left the ring).
  v_lo := greatest(v_start, v_admitted - p_max + 1, 1);
  IF v_lo <= v_admitted THEN
    SELECT r.admitted_at INTO v_first_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_lo % p_max;
    IF v_first_at <= v_cutoff THEN
      -- Admission v_lo has left the window. Gallop: probe v_lo + 1, + 2, + 4, … until one inside the window (or
      -- past the newest), then bisect between the last two probes. v_first_at is the time of v_hi once known inside.
      v_first_at := NULL;
      v_step := 1;
      LOOP
        v_hi := least(v_lo + v_step, v_admitted + 1);
        EXIT WHEN v_hi > v_admitted;
        SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_hi % p_max;
        IF v_at > v_cutoff THEN
          v_first_at := v_at;
          EXIT;
        END IF;
        v_lo := v_hi;
        v_step := v_step * 2;
      END LOOP;
      -- Admission v_lo is outside the window; v_hi is inside it (at v_first_at) or one past the newest.
      v_lo := v_lo + 1;
      WHILE v_lo < v_hi LOOP
        v_mid := (v_lo + v_hi) / 2;
        SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_mid % p_max;
        IF v_at > v_cutoff THEN
          v_hi := v_mid;
          v_first_at := v_at;
        ELSE
          v_lo := v_mid + 1;
        END IF;
      END LOOP;
    END IF;
  END IF;

  remaining := p_max - (v_admitted - v_lo + 1)::integer;
  reset_ms := CASE
    WHEN v_lo <= v_admitted THEN ceil(extract(epoch FROM (v_first_at + v_window - v_now)) * 1000)::bigint
    ELSE 0
  END;
  -- A refused request that moved nothing leaves the row alone.
  IF admitted OR v_lo <> v_start OR v_max <> p_max OR v_window_ms <> p_window_ms THEN
    UPDATE rate_limit_state
    SET admitted = v_admitted, max_requests = p_max, window_ms = p_window_ms, window_start = v_lo
    WHERE key_id = p_key;
  END IF;
  RETURN NEXT;
END
$$;
`;
