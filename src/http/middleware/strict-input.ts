// Ambiguities no parser should resolve by guessing, refused with the same 400 as the validator's:
//  - a query parameter whose percent-encoding is not UTF-8 (`%FF`, `%ED%A0%80`), or a body that
//    is not UTF-8: the parsers would turn the bytes into U+FFFD and the request would run on text
//    nobody sent;
//  - a JSON body that repeats a name in one object (`{"email":"bob@…","email":"alice@…"}`):
//    JSON.parse keeps the last, a proxy or a log may read the first (RFC 8259 §4: the names
//    "SHOULD be unique"), so such a body means different things to different readers.
import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';

import { invalidRequest } from '../problems/edge.error.ts';
import type { ProblemItem } from '../problems/problems.ts';

/** Refuses a query string with a name or value that is not UTF-8 once percent-decoded. */
export function utf8Query(req: Request, _res: Response, next: NextFunction): void {
  const at = req.originalUrl.indexOf('?');
  if (at < 0 || !req.originalUrl.includes('%', at)) {
    next();
    return;
  }
  const errors: ProblemItem[] = [];
  for (const pair of req.originalUrl.slice(at + 1).split('&')) {
    const [rawName = '', ...rest] = pair.split('=');
    const name = decoded(rawName);
    const value = decoded(rest.join('='));
    if (name === undefined || value === undefined) {
      errors.push({
        location: 'query',
        name: name ?? rawName,
        message: 'must be UTF-8 text (its percent-encoding is not UTF-8)',
      });
    }
  }
  next(errors.length > 0 ? invalidRequest(errors) : undefined);
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * For express.json's `verify`: throws the 400 when the body is not UTF-8 or an object of it
 * repeats a name. Runs on the raw bytes before they are parsed; text that is not JSON is left to
 * the parser to refuse.
 */
export function strictJsonBody(_req: Request, _res: Response, body: Buffer): void {
  if (!isUtf8(body))
    throw invalidRequest([{ location: 'body', name: '/', message: 'must be UTF-8 (the body has bytes that are not)' }]);
  const duplicates = duplicateKeys(body.toString('utf8'));
  if (duplicates.length > 0) {
    throw invalidRequest(
      duplicates.map((pointer) => ({
        location: 'body',
        name: pointer,
        message: 'appears more than once in its object (a name must be unique)',
      })),
    );
  }
}

interface Frame {
  /** Names seen so far (an object), or null (an array). */
  readonly names: Set<string> | null;
  readonly pointer: string;
  /** Object: the next string is a name. */
  expectName: boolean;
  /** The pointer segment of the value being read: its name, or its index. */
  segment: string;
  index: number;
}

/** JSON Pointers (RFC 6901) of every repeated name, in order of appearance. */
export function duplicateKeys(text: string): string[] {
  const found: string[] = [];
  const stack: Frame[] = [];
  const here = () => {
    const top = stack.at(-1);
    return top ? `${top.pointer}/${top.segment}` : '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return found;
      const top = stack.at(-1);
      if (top?.names && top.expectName) {
        let name: string;
        try {
          name = JSON.parse(text.slice(i, end + 1)) as string;
        } catch {
          return found;
        }
        top.segment = name.replace(/~/g, '~0').replace(/\//g, '~1');
        if (top.names.has(name)) found.push(here());
        else top.names.add(name);
        top.expectName = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      const pointer = here();
      stack.push({ names: c === '{' ? new Set() : null, pointer, expectName: c === '{', segment: '0', index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack.at(-1);
      if (top?.names) top.expectName = true;
      else if (top) top.segment = String(++top.index);
    }
  }
  return found;
}

/** The index of the quote that ends the string starting at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
