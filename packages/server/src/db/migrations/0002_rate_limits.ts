/**
 * The per-key rate limit: an exact sliding window kept as a ring of the last `max_requests` admission times.
 *
 * A request is admitted when fewer than max_requests were admitted in the window before it, i.e. when the
 * max_requests-th most recent admission (the ring slot about to be overwritten) is older than the window. That is
 * the strict reading of "N per window": no span of that length ever holds more than N admissions. Admissions of one
 * key are serialised by a row lock on its state row and stamped with the database's clock after the lock is taken,
 * so every process sharing the database counts the same requests in the same order. Admitting is O(1); counting
 * what remains is a binary search over the ring (O(log N) index probes).
 */
export const name = 'rate_limits';

export const up = /* sql */ `
CREATE TABLE rate_limit_state (
  key_id uuid PRIMARY KEY,
  -- Admissions so far; admission number n is kept in slot n % max_requests.
  admitted bigint NOT NULL DEFAULT 0,
  -- The limit the ring was built for; a different configured limit starts a new ring.
  max_requests integer NOT NULL,
  window_ms integer NOT NULL
);

CREATE TABLE rate_limit_slots (
  key_id uuid NOT NULL REFERENCES rate_limit_state (key_id) ON DELETE CASCADE,
  slot integer NOT NULL,
  admitted_at timestamptz NOT NULL,
  PRIMARY KEY (key_id, slot)
);

CREATE FUNCTION rate_limit_admit(p_key uuid, p_max integer, p_window_ms integer)
RETURNS TABLE (admitted boolean, remaining integer, reset_ms bigint, retry_after_ms bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_admitted bigint;
  v_max integer;
  v_window_ms integer;
  v_now timestamptz;
  v_window interval := make_interval(secs => p_window_ms / 1000.0);
  v_oldest timestamptz;
  v_lo bigint;
  v_hi bigint;
  v_mid bigint;
  v_at timestamptz;
BEGIN
  INSERT INTO rate_limit_state (key_id, max_requests, window_ms) VALUES (p_key, p_max, p_window_ms)
  ON CONFLICT (key_id) DO NOTHING;
  SELECT s.admitted, s.max_requests, s.window_ms INTO v_admitted, v_max, v_window_ms
  FROM rate_limit_state s WHERE s.key_id = p_key FOR UPDATE;
  IF v_max <> p_max OR v_window_ms <> p_window_ms THEN
    DELETE FROM rate_limit_slots WHERE key_id = p_key;
    UPDATE rate_limit_state SET admitted = 0, max_requests = p_max, window_ms = p_window_ms WHERE key_id = p_key;
    v_admitted := 0;
  END IF;
  -- Taken after the lock, so one key's admissions are stamped in the order they are decided.
  v_now := clock_timestamp();

  -- The p_max-th most recent admission, if there have been that many.
  IF v_admitted >= p_max THEN
    SELECT r.admitted_at INTO v_oldest FROM rate_limit_slots r
    WHERE r.key_id = p_key AND r.slot = (v_admitted - p_max + 1) % p_max;
  END IF;

  admitted := v_oldest IS NULL OR v_oldest <= v_now - v_window;
  retry_after_ms := 0;
  IF admitted THEN
    v_admitted := v_admitted + 1;
    INSERT INTO rate_limit_slots (key_id, slot, admitted_at) VALUES (p_key, v_admitted % p_max, v_now)
    ON CONFLICT (key_id, slot) DO UPDATE SET admitted_at = excluded.admitted_at;
    UPDATE rate_limit_state SET admitted = v_admitted WHERE key_id = p_key;
  ELSE
    retry_after_ms := ceil(extract(epoch FROM (v_oldest + v_window - v_now)) * 1000)::bigint;
  END IF;

  -- The first admission still inside the window: admission times rise with their number, so binary search.
  v_lo := greatest(v_admitted - p_max + 1, 1);
  v_hi := v_admitted + 1;
  WHILE v_lo < v_hi LOOP
    v_mid := (v_lo + v_hi) / 2;
    SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_mid % p_max;
    IF v_at > v_now - v_window THEN v_hi := v_mid; ELSE v_lo := v_mid + 1; END IF;
  END LOOP;
  remaining := p_max - (v_admitted - v_lo + 1)::integer;
  IF v_lo <= v_admitted THEN
    SELECT r.admitted_at INTO v_at FROM rate_limit_slots r WHERE r.key_id = p_key AND r.slot = v_lo % p_max;
    reset_ms := ceil(extract(epoch FROM (v_at + v_window - v_now)) * 1000)::bigint;
  ELSE
    reset_ms := 0;
  END IF;
  RETURN NEXT;
END
$$;
`;
