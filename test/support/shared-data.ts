// The directory files beside the repository (../shared/data, as CI lays it out): tests that read
// one run where it is, and are skipped where it is not, with a line that says so (the default
// reporter prints no titles of skipped tests outside a terminal), as the MongoDB tests do.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'vitest';

export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data', import.meta.url));

const told = new Set<string>();

/** A file of ../shared/data (its path relative to it), and the test and describe that run only where it is. */
export function sharedData(relative: string): {
  path: string;
  present: boolean;
  test: ReturnType<typeof test.skipIf>;
  describe: ReturnType<typeof describe.skipIf>;
} {
  const path = join(SHARED_DATA, relative);
  const present = existsSync(path);
  if (!present && !told.has(path)) {
    told.add(path);
    console.warn(
      `skipped: the tests that read ${relative} need ../shared/data beside the repository (${path} is absent)`,
    );
  }
  return { path, present, test: test.skipIf(!present), describe: describe.skipIf(!present) };
}
