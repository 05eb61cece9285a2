// The package versions are the contract's (info.version): the TypeScript and Python clients speak
// that contract, and the server's package.json names the API it serves.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { parse } from 'yaml';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');

test('the server, the TypeScript client and the Python client all carry the contract version', () => {
  const contract = (parse(read('openapi/openapi.yaml')) as { info: { version: string } }).info.version;
  expect(JSON.parse(read('package.json')).version).toBe(contract);
  expect(JSON.parse(read('clients/typescript/package.json')).version).toBe(contract);
  expect(/__version__ = "([^"]+)"/.exec(read('clients/python/school_search_client/_version.py'))?.[1]).toBe(contract);
});
