/**
 * Where log lines go: stdout, without ever waiting for it. A pipe whose reader stops draining (a stuck log shipper,
 * `| less` left open) used to hold every line in memory and, through pino's synchronous destination, block the event
 * loop for good, SIGTERM included. Here a line goes to the stream's own non-blocking write; while more than
 * LOG_BUFFER_LIMIT_BYTES wait for the reader, lines are dropped and counted instead (one line says so when dropping
 * starts, one when the reader catches up, with the count), and a closed stdout (EPIPE) drops them without failing.
 */

/**
 * Log output a stalled reader may leave waiting in memory before lines are dropped: about a thousand request lines,
 * on top of what the pipe itself holds (64 KiB on Linux).
 */
export const LOG_BUFFER_LIMIT_BYTES = 256 * 1024;

/** What a log output needs of stdout (a pipe's net.Socket, a TTY's stream, a file's synchronous stream). */
export interface LogSink {
  write(chunk: string): boolean;
  readonly writableLength: number;
  /** Set once the stream has failed or been closed: nothing written after that goes anywhere. */
  readonly destroyed: boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'drain', listener: () => void): unknown;
}

/** Turns one pino JSON line into what is written (readable text for LOG_FORMAT=pretty). */
export type Render = (line: string) => string;

export interface LogOutputOptions {
  /** How write() renders lines; a destination() may render its own way. */
  render: Render;
  /** Fields the output's own notices carry, as the logger's records do. */
  base: Record<string, unknown>;
  limitBytes?: number;
}

export class LogOutput {
  /** Lines dropped since the process started, for /metrics. */
  dropped = 0;
  /** Lines dropped in the current stall (undefined while lines get through). */
  private stalled: number | undefined;
  /** A 'drain' listener is waiting: at most one, however many stalls come before the stream drains. */
  private awaitingDrain = false;
  private closed = false;
  private readonly limit: number;

  constructor(
    private readonly sink: LogSink,
    private readonly options: LogOutputOptions,
  ) {
    this.limit = options.limitBytes ?? LOG_BUFFER_LIMIT_BYTES;
    // EPIPE and the like: the reader is gone for good. The stream's error is handled here, so it does not end the
    // process; the lines logged from now on are counted as dropped.
    sink.on('error', () => {
      this.closed = true;
    });
  }

  /** pino's destination: one JSON line per call. */
  write(line: string, render: Render = this.options.render): void {
    if (this.closed || this.sink.destroyed) {
      this.dropped += 1;
      return;
    }
    if (this.sink.writableLength >= this.limit) {
      this.drop(render);
      return;
    }
    if (this.stalled !== undefined) this.recovered(render);
    this.sink.write(render(line));
  }

  /**
   * A pino destination through this output that renders its lines (and the notices it triggers) its own way: loggers
   * of different formats share one stream, one bound and one count of dropped lines.
   */
  destination(render: Render): { write(line: string): void } {
    return { write: (line) => this.write(line, render) };
  }

  private drop(render: Render) {
    this.dropped += 1;
    if (this.stalled !== undefined) {
      this.stalled += 1;
      return;
    }
    this.stalled = 1;
    // One line past the limit, once per stall: the reader learns why lines are missing when it catches up.
    this.notice(
      render,
      `log output stalled: more than ${this.limit} bytes wait for stdout's reader; dropping log lines`,
      {},
    );
    // The stream says 'drain' once what waits has been written (a write returned false long before the limit). A
    // stall that ends with a write (the reader caught up part of the way) leaves the listener waiting: the next stall
    // reuses it rather than adding one per stall.
    if (this.awaitingDrain) return;
    this.awaitingDrain = true;
    this.sink.once('drain', () => {
      this.awaitingDrain = false;
      if (this.stalled !== undefined && !this.closed) this.recovered(render);
    });
  }

  private recovered(render: Render) {
    const dropped = this.stalled ?? 0;
    this.stalled = undefined;
    this.notice(render, 'log output recovered', { droppedLines: dropped });
  }

  private notice(render: Render, msg: string, fields: Record<string, unknown>) {
    const record = {
      level: 40,
      time: new Date().toISOString(),
      ...this.options.base,
      pid: process.pid,
      ...fields,
      msg,
    };
    this.sink.write(render(`${JSON.stringify(record)}\n`));
  }
}

/**
 * A sink that gathers the lines written in one turn of the event loop and hands them to `sink` as one write, at the
 * next turn: under load, many requests finish per turn, and one system call per line was a twentieth of a request's
 * CPU. What it holds counts in its `writableLength`, so a log output's bound covers it too. Whatever it holds when the
 * process exits is written then (stdout is synchronous on Linux for files, pipes and terminals); a process killed by
 * a signal loses at most that one turn's lines.
 */
export class TurnBatchedSink implements LogSink {
  private pending = '';
  private scheduled = false;

  /** `atExit` is told how to write what is held when the process exits (tests call it themselves). */
  constructor(
    private readonly sink: LogSink,
    atExit: (flush: () => void) => void = (flush) => process.once('exit', flush),
  ) {
    atExit(() => this.flush());
  }

  get writableLength(): number {
    return this.sink.writableLength + this.pending.length;
  }

  get destroyed(): boolean {
    return this.sink.destroyed;
  }

  write(chunk: string): boolean {
    this.pending += chunk;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    return true;
  }

  on(event: 'error', listener: (error: Error) => void): unknown {
    return this.sink.on(event, listener);
  }

  once(event: 'drain', listener: () => void): unknown {
    return this.sink.once(event, listener);
  }

  /** Writes what this turn gathered. */
  flush(): void {
    this.scheduled = false;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    if (!this.sink.destroyed) this.sink.write(lines);
  }
}
