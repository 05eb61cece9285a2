// The thread that commits request records (record-writer.ts): a connection of its own to the
// store file, so that the fsync of each commit waits here, not on the event loop of the API.
import { parentPort, workerData } from 'node:worker_threads';
import type { RequestRecord } from '../../domain/metering/metering.ports.ts';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import { Connection } from './connection.ts';
import { probeRecords, type Refusal, writeRecords } from './records.ts';

export interface WriteRequest {
  readonly id: number;
  /** Commit nothing but the probe of what a record writes (probeRecords): readiness, while records fail. */
  readonly probe?: true;
  readonly records: readonly RequestRecord[];
  /** The token each record must have been made with, when it must (writeRecords). */
  readonly madeWith?: readonly (string | undefined)[];
}

export interface WriteAnswer {
  readonly id: number;
  /** The records not stored: their token no longer held, or no longer lists their origin. */
  readonly refused?: readonly Refusal[];
  /** Set when the commit failed: `unavailable` as StoreUnavailableError (a 503), otherwise a bug. */
  readonly error?: { readonly unavailable: boolean; readonly message: string };
}

const connection = Connection.attach(workerData as { path: string; busyBudgetMs: number });
parentPort!.on('message', (request: WriteRequest) => {
  (request.probe
    ? probeRecords(connection).then((): Refusal[] => [])
    : writeRecords(connection, request.records, request.madeWith)
  ).then(
    (refused) =>
      parentPort!.postMessage(
        (refused.length ? { id: request.id, refused } : { id: request.id }) satisfies WriteAnswer,
      ),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        error: {
          unavailable: error instanceof StoreUnavailableError,
          message: error instanceof Error ? error.message : String(error),
        },
      } satisfies WriteAnswer),
  );
});
parentPort!.on('close', () => connection.close());
