import { once } from 'node:events';
import { colourEnabled, createStyle, type Style } from './output/format.js';

/** A stream written with back-pressure: `await write()` waits for `drain` when the pipe is full. */
export class Out {
  readonly #stream: NodeJS.WriteStream;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }

  get isTTY(): boolean {
    return this.#stream.isTTY === true;
  }

  async write(text: string): Promise<void> {
    if (!text) return;
    if (!this.#stream.write(text)) await once(this.#stream, 'drain');
  }
}

/**
 * A one-line progress indicator on stderr, redrawn in place. Only on a terminal: when stderr is piped or redirected
 * it writes nothing, so logs stay clean.
 */
export class Progress {
  /** The progress line on screen, if any: cleared on Ctrl-C (see main.ts). */
  static active: Progress | undefined;
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  #shown = false;

  constructor(stream: NodeJS.WriteStream, enabled: boolean) {
    this.#stream = stream;
    this.#enabled = enabled;
  }

  update(text: string): void {
    if (!this.#enabled) return;
    this.#stream.write(`\r\u001b[K${text}`);
    this.#shown = true;
    Progress.active = this;
  }

  clear(): void {
    if (!this.#shown) return;
    this.#stream.write('\r\u001b[K');
    this.#shown = false;
  }
}

export interface IO {
  env: NodeJS.ProcessEnv;
  out: Out;
  err: Out;
  /** Styling for stdout (tables). */
  style: Style;
  /** Styling for stderr (errors, notices). */
  errStyle: Style;
  /** Width to fit tables to: the terminal's, else `COLUMNS`, else none (never truncate). */
  maxWidth: number | undefined;
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
  progress: Progress;
  /** A line on stderr (clearing any progress line first). */
  notice(message: string): void;
}

export function createIO(colour: boolean, env: NodeJS.ProcessEnv = process.env): IO {
  const { stdout, stderr, stdin } = process;
  const columns = Number(env.COLUMNS);
  const maxWidth = stdout.isTTY ? stdout.columns || 80 : Number.isInteger(columns) && columns > 0 ? columns : undefined;
  const progress = new Progress(stderr, stderr.isTTY === true);
  const errStyle = createStyle(colourEnabled(stderr, env, colour));
  return {
    env,
    out: new Out(stdout),
    err: new Out(stderr),
    style: createStyle(colourEnabled(stdout, env, colour)),
    errStyle,
    maxWidth,
    stdinIsTTY: stdin.isTTY === true,
    stderrIsTTY: stderr.isTTY === true,
    progress,
    notice(message: string) {
      progress.clear();
      stderr.write(`${message}\n`);
    },
  };
}
