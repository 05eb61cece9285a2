// The contract, loaded once at start-up from openapi/openapi.yaml: the validator, /openapi.json
// and Swagger UI all read this one object.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CONTRACT_PATH = fileURLToPath(new URL('../../openapi/openapi.yaml', import.meta.url));

export type Contract = Record<string, unknown> & {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

export function loadContract(path: string = CONTRACT_PATH): Contract {
  return parse(readFileSync(path, 'utf8')) as Contract;
}
