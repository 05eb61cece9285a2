// The contract, loaded once at start-up: the validator, /openapi.json and Swagger UI all read
// this one object. openapi/openapi.yaml is the source; `npm run generate` also writes it as JSON
// (generated/contract.json, with the SHA-256 of the YAML it was made from), which loads in a few
// milliseconds where the YAML parser took 150–190 ms of a start's CPU. A JSON copy that is not of
// the YAML as it is now (the contract edited, not yet generated) is not used: the YAML is parsed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const CONTRACT_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));
export const CONTRACT_JSON_PATH = fileURLToPath(new URL('../../generated/contract.json', import.meta.url));

export type Contract = Record<string, unknown> & {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** What generated/contract.json holds. */
interface ContractJson {
  readonly yamlSha256: string;
  readonly contract: Contract;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The YAML parser, loaded only when the YAML is parsed (tests' own contracts, a contract edited since generation). */
const parseYaml = (text: string): unknown =>
  (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

/** The contract at `path` (default: the project's), from its generated JSON copy when that is of this very text. */
export function loadContract(path: string = CONTRACT_PATH): Contract {
  const text = readFileSync(path, 'utf8');
  if (path === CONTRACT_PATH) {
    const copy = readJsonCopy();
    if (copy?.yamlSha256 === sha256(text)) return copy.contract;
  }
  return parseYaml(text) as Contract;
}

function readJsonCopy(): ContractJson | undefined {
  try {
    return JSON.parse(readFileSync(CONTRACT_JSON_PATH, 'utf8')) as ContractJson;
  } catch {
    return undefined;
  }
}

/** generated/contract.json's text for the contract's YAML `text`. */
export function contractJson(text: string): string {
  return `${JSON.stringify({ yamlSha256: sha256(text), contract: parseYaml(text) as Contract } satisfies ContractJson, null, 2)}\n`;
}
