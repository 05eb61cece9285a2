// The cursor of a history page: where the next page starts, as the last record of this one (its
// time and id, the history's order). Keyset paging: a page after a cursor is read from the
// index at that point, so it costs the same however deep in the history it is, and records
// written since do not shift it. Opaque to clients (base64url), versioned so it can change.
import { InvalidInputError } from '../shared/errors.ts';

/** The position after which a page starts: a record's place in newest-first order. */
export interface HistoryPosition {
  readonly timeMade: Date;
  readonly id: string;
}

const VERSION = 'h1';
/** Record ids are UUIDs; anything of this shape is safe to hand to a store as a bound. */
const ID = /^[0-9A-Za-z-]{1,64}$/;

export function encodeCursor(position: HistoryPosition): string {
  return Buffer.from(`${VERSION}|${position.timeMade.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** Throws InvalidInputError (a 400) for a cursor this API did not make. */
export function decodeCursor(cursor: string): HistoryPosition {
  const [version, time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const timeMade = new Date(time ?? '');
  if (
    version !== VERSION ||
    rest.length > 0 ||
    Number.isNaN(timeMade.getTime()) ||
    timeMade.toISOString() !== time ||
    !ID.test(id ?? '')
  ) {
    throw new InvalidInputError('The cursor is not one this API issued: pass the next_cursor of a page unchanged.');
  }
  return { timeMade, id: id! };
}
