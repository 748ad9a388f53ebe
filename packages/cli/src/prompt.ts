import { CliError, EXIT } from './errors.js';

/**
 * Reads a secret. On a terminal: prompts on stderr and reads keystrokes in raw mode, echoing nothing (Backspace
 * edits, Enter ends, Ctrl-C or Ctrl-D aborts). Otherwise (piped, as in scripts and tests): the first line of stdin,
 * without a prompt.
 */
export async function readSecret(prompt: string): Promise<string> {
  const { stdin, stderr } = process;
  if (!stdin.isTTY) return (await readLine(stdin)).trim();
  // Echo goes off before the prompt shows: a key typed or pasted the moment the prompt appears is never displayed.
  stdin.setRawMode(true);
  stderr.write(prompt);
  return await new Promise<string>((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003' || (char === '\u0004' && value === '')) {
          return finish(new CliError('Cancelled.', EXIT.ERROR));
        }
        if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** Asks a yes/no question on stderr and reads the answer from the terminal; only "y" or "yes" is yes. */
export async function confirm(question: string): Promise<boolean> {
  process.stderr.write(`${question} [y/N] `);
  const answer = (await readLine(process.stdin)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}

/** The first line of a stream (or all of it when it ends without a newline). */
function readLine(stream: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const done = (value: string) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline !== -1) done(buffer.slice(0, newline));
    };
    const onEnd = () => done(buffer);
    const onError = (error: Error) => reject(error);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.resume();
  });
}
