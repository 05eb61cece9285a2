// patches/express-openapi-validator+5.6.2.patch skips two start-up steps of the validator that
// give nothing back on this contract: bundling a document whose references all point inside it,
// and compiling a schema only to read it back while preprocessing. Each skip is exact only if
// the step it skips would have changed nothing; these tests hold the contract to that.
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../src/http/contract.ts';

// The validator's own copy of the reference parser, as it calls it.
const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const $RefParser = fromValidator('@apidevtools/json-schema-ref-parser') as {
  bundle(document: object): Promise<object>;
};

/** Every `$ref` of the document. */
function refsOf(document: unknown): string[] {
  const refs: string[] = [];
  JSON.stringify(document, (key, value: unknown) => {
    if (key === '$ref') refs.push(String(value));
    return value;
  });
  return refs;
}

describe('the validator patches, on the contract the server loads', () => {
  test('when the contract is bundled, then the same document comes back: skipping that step changes nothing', async () => {
    const contract = loadContract();
    expect(isDeepStrictEqual(await $RefParser.bundle(structuredClone(contract)), contract)).toBe(true);
  });

  test('when the references are listed, then every one points inside the document, at a node that exists', () => {
    const contract = loadContract() as unknown as Record<string, unknown>;
    const refs = refsOf(contract);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\//);
      let node: unknown = contract;
      for (const part of ref.slice(2).split('/'))
        node = (node as Record<string, unknown>)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(node, ref).toBeTypeOf('object');
    }
  });
});
