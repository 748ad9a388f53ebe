import type { IO } from '../io.js';
import { groupDigits } from '../output/format.js';

// An import's progress on stderr: on a terminal, one line redrawn in place (a bar, rows done of the total, items per
// second, time left); otherwise a plain line every few seconds, for logs.

/** Seconds between plain progress lines when stderr is not a terminal. */
const PLAIN_INTERVAL_MS = 2_000;
/** At most this often is the terminal's line redrawn. */
const REDRAW_INTERVAL_MS = 100;
const BAR_WIDTH = 24;

/** A duration for people: `42 s`, `3 min 5 s`, `1 h 12 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** An elapsed time with a tenth of a second below a minute: `31.2 s`. */
export function formatElapsed(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms);
}

export class ImportProgress {
  readonly #io: IO;
  readonly #total: number;
  /** Rows done before this run (a resumed import), which do not count in this run's speed. */
  readonly #before: number;
  readonly #started = performance.now();
  #done: number;
  /** When the line was last drawn: never, so the first update always draws (even within 100 ms of the start). */
  #last = Number.NEGATIVE_INFINITY;
  #waiting: string | undefined;

  constructor(io: IO, total: number, before: number) {
    this.#io = io;
    this.#total = total;
    this.#before = before;
    this.#done = before;
  }

  /** Rows done so far (of every run). */
  update(done: number): void {
    this.#done = done;
    this.#waiting = undefined;
    this.#draw(false);
  }

  /** Says what the import waits for (the rate limit), until the next update. */
  waiting(text: string): void {
    this.#waiting = text;
    if (this.#io.stderrIsTTY) this.#draw(true);
    else this.#io.notice(text);
  }

  clear(): void {
    this.#io.progress.clear();
  }

  /** This run's rows per second, once it has done some. */
  get rate(): number | undefined {
    const seconds = (performance.now() - this.#started) / 1000;
    const rows = this.#done - this.#before;
    return rows > 0 && seconds > 0 ? rows / seconds : undefined;
  }

  #draw(force: boolean): void {
    const now = performance.now();
    const tty = this.#io.stderrIsTTY;
    const interval = tty ? REDRAW_INTERVAL_MS : PLAIN_INTERVAL_MS;
    if (!force && this.#done < this.#total && now - this.#last < interval) return;
    this.#last = now;
    const total = this.#total;
    const share = total === 0 ? 1 : this.#done / total;
    const percent = `${Math.floor(share * 100)}%`;
    const rows = `${groupDigits(this.#done)}/${groupDigits(total)} rows`;
    const rate = this.rate;
    const speed = rate === undefined ? undefined : `${groupDigits(Math.round(rate))} items/s`;
    const left =
      rate === undefined || this.#done >= total
        ? undefined
        : `${formatDuration(((total - this.#done) / rate) * 1000)} left`;
    if (tty) {
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
      const tail = this.#waiting ?? [speed, left].filter(Boolean).join('  ');
      this.#io.progress.update(`Importing ${bar} ${rows} ${percent}${tail ? `  ${tail}` : ''}`);
    } else if (this.#done > this.#before) {
      this.#io.notice([`${rows} (${percent})`, speed, left].filter(Boolean).join(', '));
    }
  }
}
