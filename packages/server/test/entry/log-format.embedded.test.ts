import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SERVER_NODE_FLAGS } from '@coinventory/test-server';
import { afterAll, describe, expect, it } from 'vitest';
import { formatLogLine } from '../../src/log-format.js';
import { removeTempDirs, tempDir } from '../support/binary.js';

afterAll(removeTempDirs);

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** util-linux `script` gives the server a pseudo-terminal, as an operator's shell does. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasScript && process.env.CI) throw new Error('CI needs util-linux script for the terminal test');

describe('readable log lines', () => {
  it('turn a record into time, level, message and fields, an error with its stack below', () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-11-25T12:04:05.120Z',
      pid: 4242,
      service: 'coinventory-server',
      requestId: 'req_1',
      status: 500,
      path: '/v1/items',
      note: 'two words',
      err: { type: 'Error', message: 'boom', code: '57014', stack: 'Error: boom\n    at x (y.js:1:1)' },
      msg: 'request failed',
    });
    expect(formatLogLine(line, false)).toBe(
      '12:04:05.120 ERROR request failed pid=4242 requestId=req_1 status=500 path=/v1/items note="two words" err=boom err.code=57014\n' +
        '    Error: boom\n        at x (y.js:1:1)\n',
    );
    expect(formatLogLine(line, true)).toContain('\u001b[31mERROR\u001b[0m');
    // What is not a JSON object passes through as a line of its own.
    expect(formatLogLine('not json', false)).toBe('not json\n');
    expect(formatLogLine('null', false)).toBe('null\n');
  });
});

describe.runIf(hasScript)('coinventory-server start on a terminal', () => {
  it('logs readable coloured lines and sets the demo key apart; LOG_FORMAT=json keeps JSON there', async () => {
    const dataDir = join(tempDir(), 'data');
    const started = async (extra: Record<string, string>) => {
      const child = spawn(
        'script',
        ['-qec', `"${process.execPath}" ${TEST_SERVER_NODE_FLAGS.join(' ')} "${MAIN}" start`, '/dev/null'],
        {
          env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', COINVENTORY_DATA_DIR: dataDir, ...extra },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const deadline = Date.now() + 60_000;
      while (!/listening/.test(output) && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      process.kill(-(child.pid ?? 0), 'SIGTERM');
      await once(child, 'close');
      return output;
    };

    const first = await started({});
    // Terminal output with its escapes written as `<ESC>`, so the patterns below need no control characters.
    const shown = first.replaceAll('\u001b', '<ESC>');
    // The banner: ruled off, bold, the key in bold yellow.
    expect(shown).toMatch(/<ESC>\[1;33mcvk_live_[0-9A-Za-z]{38}<ESC>\[0m/);
    expect(first).toContain('─'.repeat(72));
    // Log lines: time, coloured level, message, fields; no JSON.
    expect(shown).toMatch(
      /\d\d:\d\d:\d\d\.\d{3}<ESC>\[0m <ESC>\[32mINFO <ESC>\[0m listening .*baseUrl=http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(first).not.toContain('"msg":"listening"');

    const second = await started({ LOG_FORMAT: 'json', NO_COLOR: '1' });
    expect(second).toMatch(/^\{"level":30,.*"msg":"listening"\}\r?$/m);
    expect(second).not.toContain('\u001b[');
  });
});
