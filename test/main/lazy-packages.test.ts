// A server loads only the packages its configuration uses. The embedded store's server and command
// line never load the MongoDB driver: the MongoDB side of the composition root
// (src/composition/mongodb.ts) is imported only when MONGODB_URI names a server, so the driver's
// modules, their heap and the 17 MiB buffer the BSON serializer allocates as it loads cost them
// nothing (docs/runs/performance.md, Run K). Likewise nodemailer without SMTP_URL, prom-client without
// metrics, pino-pretty for JSON logs and the importers' parsers once the catalog is seeded (Run L).
// A child process imports each entry's whole static module graph (neither starts when imported)
// with a load hook noting the packages, then runs `then`.
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

describe('the packages a server uses only for some settings', () => {
  const OPTIONAL = ['nodemailer', 'pino-pretty', 'prom-client', 'csv-parse', '@streamparser/json'];

  test('when the server is imported, then none of them is loaded', () => {
    const packages = packagesLoaded('src/main.ts');
    expect(packages).toContain('pino');
    expect(packages.filter((name) => OPTIONAL.includes(name))).toEqual([]);
  }, 60_000);

  test('when SMTP_URL names a mail server, then the mailer loads nodemailer', () => {
    const smtp = "{ mail: { kind: 'smtp', url: 'smtp://127.0.0.1:9', from: 'a@example.com' } }";
    const packages = packagesLoaded('src/composition/mailer.ts', `(await entry.mailerOf(${smtp}, () => {})).close();`);
    expect(packages).toContain('nodemailer');
  }, 60_000);

  test('when there is no SMTP_URL, then the mailer does not load nodemailer', () => {
    const packages = packagesLoaded(
      'src/composition/mailer.ts',
      "await entry.mailerOf({ mail: { kind: 'log' } }, () => {});",
    );
    expect(packages).not.toContain('nodemailer');
  }, 60_000);

  test('when the readable log form is chosen, then pino-pretty is loaded, and not for JSON lines', () => {
    const output = (format: string) =>
      `await entry.serverOutput({ logLevel: 'silent', logFormat: '${format}', env: 'development' }, false);`;
    expect(packagesLoaded('src/logger.ts', output('pretty'))).toContain('pino-pretty');
    expect(packagesLoaded('src/logger.ts', output('json'))).not.toContain('pino-pretty');
  }, 60_000);

  test('when metrics are configured, then prom-client is loaded, and not without them', () => {
    const telemetry = (metrics: string) =>
      `await entry.composeTelemetry({ metrics: ${metrics}, store: { kind: 'sqlite' } });`;
    expect(packagesLoaded('src/composition/server.ts', telemetry("{ token: 'a-metrics-token' }"))).toContain(
      'prom-client',
    );
    expect(packagesLoaded('src/composition/server.ts', telemetry('{}'))).not.toContain('prom-client');
  }, 60_000);
});
