// Reads a password without it ever appearing in the process list or shell history: from a
// pipe (first line), or typed at a terminal with echo off.
import { InvalidInputError } from '../domain/shared/errors.ts';
import { CancelledError } from './usage.ts';

export async function readPassword(stdin: NodeJS.ReadStream, stderr: NodeJS.WritableStream): Promise<string> {
  if (!stdin.isTTY) return firstLine(stdin);
  const password = await promptHidden(stdin, stderr, 'Password: ');
  if ((await promptHidden(stdin, stderr, 'Repeat password: ')) !== password) {
    throw new InvalidInputError('The two passwords differ.');
  }
  return password;
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  // Stop at the first line break: whatever follows is not part of the password.
  for await (const chunk of stream) {
    text += decoder.decode(chunk as Buffer, { stream: true });
    if (text.includes('\n')) break;
  }
  return text.split('\n', 1)[0]!.replace(/\r$/, '');
}

function promptHidden(stdin: NodeJS.ReadStream, stderr: NodeJS.WritableStream, prompt: string): Promise<string> {
  // Echo goes off before the prompt shows: a fast typist (or a script) must not race it.
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
    };
    const onData = (chunk: string): void => {
      // An escape sequence (arrow keys...) arrives as one chunk: none of it belongs in a password.
      if (chunk.startsWith('\u001b')) return;
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new CancelledError('Cancelled.'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
