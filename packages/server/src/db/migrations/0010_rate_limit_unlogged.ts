/**
 * The rate limiter's tables become UNLOGGED: counting a request no longer waits for a WAL flush.
 *
 * Every request of a permitted key, every GET included, writes its admission to rate_limit_state and
 * rate_limit_slots. While those tables were logged, each request's statement committed durably: PostgreSQL flushed
 * the WAL to disk before answering, so every read paid for a durable write. Changes to an unlogged table write no
 * WAL, and a transaction that wrote none commits without waiting for a flush.
 *
 * What that gives up, deliberately: after a crash of PostgreSQL (not a clean shutdown), recovery empties unlogged
 * tables, so every key starts a fresh window; a key can then make up to one more window's worth of requests in the
 * window that spans the crash. A standby does not receive unlogged tables either: after a failover the limiter starts
 * empty in the same way. Counting stays exact across processes (the same row lock serialises a key's admissions).
 * Nothing a client was promised lives here; the items, keys and every other acknowledged write stay logged.
 *
 * Order matters: a logged table may not reference an unlogged one, so the slots (which reference the state) go first.
 *
 * rate_limit_admit also runs one statement less in the usual case (a ring of the caller's own size): the slot the
 * next admission takes holds the admission to compare with, so a conditional upsert decides and writes at once. A
 * key's requests wait for each other on its state row's lock until commit; what runs under the lock is what limits
 * one key's throughput.
 */
export const name = 'rate_limit_unlogged';

export const up = /* sql */ `
ALTER TABLE rate_limit_slots SET UNLOGGED;
ALTER TABLE rate_limit_state SET UNLOGGED;

CREATE OR REPLACE FUNCTION rate_limit_admit(p_key uuid, p_max integer, p_window_ms integer)
RETURNS TABLE (admitted boolean, remaining integer, reset_ms bigint, retry_after_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_admitted bigint;
  -- The ring's size: admission n is kept in slot n % v_size.
  v_size integer;
  v_new_size integer;
  -- The window v_start was found for.
  v_start_window_ms integer;
  v_start bigint;
  v_used_at timestamptz;
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
  v_slots integer[];
  v_times timestamptz[];
  v_resized boolean := false;
BEGIN
  -- The row exists for every key that was ever counted: lock it, and create it only the first time.
  SELECT s.admitted, s.max_requests, s.window_ms, s.window_start, s.size_used_at
  INTO v_admitted, v_size, v_start_window_ms, v_start, v_used_at
  FROM rate_limit_state s WHERE s.key_id = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_state (key_id, max_requests, window_ms) VALUES (p_key, p_max, p_window_ms)
    ON CONFLICT (key_id) DO NOTHING;
    SELECT s.admitted, s.max_requests, s.window_ms, s.window_start, s.size_used_at
    INTO v_admitted, v_size, v_start_window_ms, v_start, v_used_at
    FROM rate_limit_state s WHERE s.key_id = p_key FOR UPDATE;
  END IF;
  -- Taken after the lock, so one key's admissions are stamped in the order they are decided.
  v_now := clock_timestamp();
  v_cutoff := v_now - v_window;

  -- Grow the ring for a larger limit; shrink it for a smaller one once the larger has gone a window unused.
  IF p_max > v_size OR (
    p_max < v_size
    AND v_used_at <= v_now - greatest(v_window, make_interval(secs => v_start_window_ms / 1000.0))
  ) THEN
    v_new_size := p_max;
    -- Slot s holds admission v_admitted - (v_admitted - s) % v_size; keep the newest v_new_size, re-slotted.
    SELECT coalesce(array_agg((k.n % v_new_size)::integer), '{}'), coalesce(array_agg(k.at), '{}') INTO v_slots, v_times
    FROM (
      SELECT v_admitted - (v_admitted - r.slot) % v_size AS n, r.admitted_at AS at
      FROM rate_limit_slots r WHERE r.key_id = p_key
    ) k
    WHERE k.n > v_admitted - v_new_size;
    DELETE FROM rate_limit_slots WHERE key_id = p_key;
    INSERT INTO rate_limit_slots (key_id, slot, admitted_at)
    SELECT p_key, u.slot, u.at FROM unnest(v_slots, v_times) AS u(slot, at);
    -- Nothing older than the admissions kept can be found any more.
    v_start := greatest(v_start, v_admitted - least(v_size, v_new_size) + 1);
    v_size := v_new_size;
    v_resized := true;
  END IF;

  -- This caller's p_max-th most recent admission, if there have been that many: admitted when it is outside the
  -- window. Absent from the ring (older than the ring was) counts as outside.
  retry_after_ms := 0;
  IF p_max = v_size THEN
    -- The usual case, a ring of this caller's own size: the slot the next admission takes holds exactly that
    -- admission (or nothing), so one statement decides and writes. The key's lock is held until commit, so every
    -- statement less here is time less that the key's other requests wait.
    INSERT INTO rate_limit_slots AS r (key_id, slot, admitted_at) VALUES (p_key, (v_admitted + 1) % v_size, v_now)
    ON CONFLICT (key_id, slot) DO UPDATE SET admitted_at = excluded.admitted_at WHERE r.admitted_at <= v_cutoff;
    admitted := FOUND;
    IF admitted THEN
      v_admitted := v_admitted + 1;
      v_used_at := v_now;
    ELSE
      SELECT r.admitted_at INTO v_oldest FROM rate_limit_slots r
      WHERE r.key_id = p_key AND r.slot = (v_admitted + 1) % v_size;
      retry_after_ms := ceil(extract(epoch FROM (v_oldest + v_window - v_now)) * 1000)::bigint;
    END IF;
  ELSE
    -- A ring sized for a larger limit: the admission to compare with is in another slot than the one written.
    IF v_admitted >= p_max THEN
      SELECT r.admitted_at INTO v_oldest FROM rate_limit_slots r
      WHERE r.key_id = p_key AND r.slot = (v_admitted - p_max + 1) % v_size;
    END IF;
    admitted := v_oldest IS NULL OR v_oldest <= v_cutoff;
    IF admitted THEN
      v_admitted := v_admitted + 1;
      INSERT INTO rate_limit_slots (key_id, slot, admitted_at) VALUES (p_key, v_admitted % v_size, v_now)
      ON CONFLICT (key_id, slot) DO UPDATE SET admitted_at = excluded.admitted_at;
    ELSE
      retry_after_ms := ceil(extract(epoch FROM (v_oldest + v_window - v_now)) * 1000)::bigint;
    END IF;
  END IF;

  -- The first admission still inside the window, at or after the remembered one when that was found for a window
  -- no shorter than this one (older ones have left it, or the ring). Admissions missing from the ring are the
  -- oldest ones and count as outside.
  v_lo := greatest(CASE WHEN p_window_ms <= v_start_window_ms THEN v_start ELSE 1 END, v_admitted - v_size + 1, 1);
  IF v_lo <= v_admitted THEN
    SELECT r.admitted_at INTO v_first_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_lo % v_size;
    IF v_first_at IS NULL OR v_first_at <= v_cutoff THEN
      -- Admission v_lo has left the window. Gallop: probe v_lo + 1, + 2, + 4, … until one inside the window (or
      -- past the newest), then bisect between the last two probes. v_first_at is the time of v_hi once known inside.
      v_first_at := NULL;
      v_step := 1;
      LOOP
        v_hi := least(v_lo + v_step, v_admitted + 1);
        EXIT WHEN v_hi > v_admitted;
        SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_hi % v_size;
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
        SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_mid % v_size;
        IF v_at > v_cutoff THEN
          v_hi := v_mid;
          v_first_at := v_at;
        ELSE
          v_lo := v_mid + 1;
        END IF;
      END LOOP;
    END IF;
  END IF;

  IF v_lo <= v_admitted - p_max THEN
    -- More admissions in the window than this caller's limit (a larger limit admitted them; this one is refused):
    -- its count drops when its p_max-th most recent admission leaves.
    remaining := 0;
    reset_ms := retry_after_ms;
  ELSE
    remaining := p_max - (v_admitted - v_lo + 1)::integer;
    reset_ms := CASE
      WHEN v_lo <= v_admitted THEN ceil(extract(epoch FROM (v_first_at + v_window - v_now)) * 1000)::bigint
      ELSE 0
    END;
  END IF;
  -- A refused request that moved nothing leaves the row alone.
  IF admitted OR v_resized OR v_lo <> v_start OR p_window_ms <> v_start_window_ms THEN
    UPDATE rate_limit_state
    SET admitted = v_admitted, max_requests = v_size, window_ms = p_window_ms, window_start = v_lo,
      size_used_at = v_used_at
    WHERE key_id = p_key;
  END IF;
  RETURN NEXT;
END
$$;
`;
