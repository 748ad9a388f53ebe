import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LOG_BUFFER_LIMIT_BYTES, LogOutput, TurnBatchedSink } from '../../src/log-output.js';

/**
 * The log output on a real pipe whose reader does not read (a child process that reads its stdin late, or never):
 * what waits in memory stays within the bound, one line says when dropping starts and one when the reader has
 * caught up, with the count, and a reader that has gone (EPIPE) costs the lines, not the process. Runs once: no
 * database is involved.
 */

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A pipe to `sh -c script`'s stdin, and what the script prints. */
function pipeTo(script: string) {
  const child = spawn('sh', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  return { child, stdin: child.stdin as Writable, printed: () => printed };
}

const LINE = `${JSON.stringify({ level: 30, time: new Date().toISOString(), msg: 'request', path: '/healthz' })}\n`;

describe('the log output', () => {
  it('holds at most its bound while the reader stalls, says so once, and reports the count when it catches up', async () => {
    // The reader starts reading after a second, and hands on what it reads.
    const { child, stdin, printed } = pipeTo('sleep 1; cat');
    const output = new LogOutput(stdin, { render: (line) => line, base: { service: 'test' } });
    const lines = Math.ceil((2 * LOG_BUFFER_LIMIT_BYTES) / LINE.length);
    let peak = 0;
    for (let i = 0; i < lines; i++) {
      output.write(LINE);
      peak = Math.max(peak, stdin.writableLength);
    }
    // The bound, plus the line that crossed it and the one notice.
    expect(peak).toBeLessThan(LOG_BUFFER_LIMIT_BYTES + 2 * LINE.length + 512);
    expect(output.dropped).toBeGreaterThan(0);
    const dropped = output.dropped;

    const deadline = Date.now() + 20_000;
    while (!printed().includes('log output recovered') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const notices = printed()
      .split('\n')
      .filter((line) => line.includes('"log output'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; droppedLines?: number });
    expect(notices.map((notice) => notice.msg.split(':')[0])).toEqual(['log output stalled', 'log output recovered']);
    expect(notices[1]?.droppedLines).toBe(dropped);
    expect(notices.every((notice) => notice.level === 40)).toBe(true);
    // Every line not dropped got through.
    expect(
      printed()
        .split('\n')
        .filter((line) => line.includes('"request"')).length,
    ).toBe(lines - dropped);
    stdin.end();
    await once(child, 'exit');
  });

  it('drops the lines, without an error, once the reader has gone (EPIPE)', async () => {
    const { child, stdin } = pipeTo('exit 0');
    await once(child, 'exit');
    const output = new LogOutput(stdin, { render: (line) => line, base: { service: 'test' } });
    const unhandled: unknown[] = [];
    const onUncaught = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 100; i++) {
        output.write(LINE);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(unhandled).toEqual([]);
    expect(output.dropped).toBeGreaterThan(90);
  });

  it('keeps at most one drain listener however often stalls alternate with a partial catch-up', () => {
    // A stream whose reader takes each chunk when the test says: its buffer shrinks, without emptying, on demand.
    const taken: Array<() => void> = [];
    const sink = new Writable({
      highWaterMark: 1024,
      write(_chunk, _encoding, done) {
        taken.push(done);
      },
    });
    const limitBytes = 8 * LINE.length;
    const output = new LogOutput(sink, { render: (line) => line, base: { service: 'test' }, limitBytes });
    for (let stall = 0; stall < 5; stall++) {
      while (sink.writableLength < limitBytes) output.write(LINE);
      output.write(LINE); // dropped: a stall starts
      // The reader catches up part of the way: lines get through again before the stream has drained.
      while (sink.writableLength >= limitBytes - 2 * LINE.length) taken.shift()?.();
      output.write(LINE);
    }
    expect(output.dropped).toBe(5);
    expect(sink.listenerCount('drain')).toBe(1);
    sink.destroy();
  });

  it("renders each destination's lines, and the notices they trigger, its own way, with one bound and one count", async () => {
    // A stream whose reader takes each chunk when the test says, recording what reaches it.
    const written: string[] = [];
    const taken: Array<() => void> = [];
    const sink = new Writable({
      highWaterMark: 1 << 20,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        taken.push(done);
      },
    });
    const limitBytes = 8 * LINE.length;
    const output = new LogOutput(sink, { render: (line) => line, base: { service: 'test' }, limitBytes });
    const json = output.destination((line) => line);
    const pretty = output.destination((line) => `PRETTY ${line}`);
    json.write(LINE);
    pretty.write(LINE);
    while (sink.writableLength < limitBytes) json.write(LINE);
    pretty.write(LINE);
    json.write(LINE);
    expect(output.dropped).toBe(2);
    while (sink.writableLength > 0) {
      taken.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(written.slice(0, 2)).toEqual([LINE, `PRETTY ${LINE}`]);
    // The stall's notice in the format of the logger whose line was dropped first; the others' lines in their own.
    expect(written.at(-1)).toMatch(/^PRETTY .*log output stalled/);
    expect(written.slice(2, -1).every((line) => line === LINE)).toBe(true);
    sink.destroy();
  });

  it('writes the lines of one turn of the event loop as one write, in order, counting what it holds', async () => {
    const writes: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString());
        done();
      },
    });
    const batched = new TurnBatchedSink(sink);
    const output = new LogOutput(batched, { render: (line) => line, base: { service: 'test' } });
    for (let i = 0; i < 3; i++) output.write(`${i}\n`);
    expect(writes).toEqual([]);
    expect(batched.writableLength).toBe(6);
    await new Promise((resolve) => setImmediate(resolve));
    output.write('3\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['0\n1\n2\n', '3\n']);
    expect(batched.writableLength).toBe(0);
    sink.destroy();
  });

  it('writes what it holds at once when the process exits, in the same turn', () => {
    const writes: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString());
        done();
      },
    });
    let atExit = () => {};
    const batched = new TurnBatchedSink(sink, (flush) => {
      atExit = flush;
    });
    batched.write('last words\n');
    // What the process's 'exit' listener does: the turn that would have written the line never comes.
    atExit();
    expect(writes).toEqual(['last words\n']);
    sink.destroy();
  });
});
