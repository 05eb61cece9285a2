// Once per vitest run: starts FerretDB (when installed) for the tests that run the MongoDB
// adapter against a real wire-protocol server, and hands its URI to them (inject('ferretdbUri')).
import type { TestProject } from 'vitest/node';
import { ferretDbBinary, startFerretDb } from '../../scripts/ferretdb/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** mongodb://… of the run's FerretDB, or '' when it is not installed. */
    ferretdbUri: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!ferretDbBinary()) {
    project.provide('ferretdbUri', '');
    return undefined;
  }
  const ferretdb = await startFerretDb();
  project.provide('ferretdbUri', ferretdb.uri);
  return () => ferretdb.stop();
}
