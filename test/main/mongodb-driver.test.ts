// The embedded store's server and command line never load the MongoDB driver: the MongoDB side of
// the composition root (src/composition/mongodb.ts) is imported only when MONGODB_URI names a
// server, so the driver's modules, their heap and the 17 MiB buffer the BSON serializer allocates
// as it loads cost them nothing (docs/performance.md, Run K). A child process imports each entry's
// whole static module graph (neither starts when imported) with a load hook noting the packages.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { REPO } from '../support/processes.ts';

/** The node_modules packages loaded by importing `entry` (and, with `then`, by running that code after). */
function packagesLoaded(entry: string, then = ''): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const packages = new Set();
    registerHooks({
      load(url, context, nextLoad) {
        const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
        if (name) packages.add(name);
        return nextLoad(url, context);
      },
    });
    const entry = await import(${JSON.stringify(new URL(entry, `file://${REPO}`).href)});
    ${then}
    process.stdout.write(JSON.stringify([...packages].sort()));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO,
    env: { ...process.env, MONGODB_URI: '' },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as string[];
}

describe('the MongoDB driver, on the embedded store', () => {
  test('when the server is imported, then express is loaded and neither mongodb nor bson', () => {
    const packages = packagesLoaded('src/main.ts');
    expect(packages).toContain('express');
    expect(packages).not.toContain('mongodb');
    expect(packages).not.toContain('bson');
  }, 60_000);

  test('when the command line is imported, then neither mongodb nor bson is loaded', () => {
    const packages = packagesLoaded('src/cli/main.ts');
    expect(packages).not.toContain('mongodb');
    expect(packages).not.toContain('bson');
  }, 60_000);

  test('when a MongoDB store is asked for, then its side of the composition loads the driver', () => {
    // Only the module is loaded (no server is reached): what openStore imports for kind "mongodb".
    const packages = packagesLoaded('src/composition/store.ts', "await import('./src/composition/mongodb.ts');");
    expect(packages).toContain('mongodb');
  }, 60_000);
});
