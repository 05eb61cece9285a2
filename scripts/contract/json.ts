// `npm run generate` (its last step): the contract as JSON, generated/contract.json, beside the
// other generated code. The server reads it instead of the YAML at every start (src/http/contract.ts):
// parsing 150 KB of YAML took 150–190 ms of CPU, JSON.parse a few. It holds the SHA-256 of the YAML
// it was made from, so that a server started after an edit of the contract, before `npm run
// generate`, reads the YAML itself rather than a stale copy (and CI's check:generated fails).
import { readFileSync, writeFileSync } from 'node:fs';
import { CONTRACT_JSON_PATH, CONTRACT_PATH, contractJson } from '../../src/http/contract.ts';

writeFileSync(CONTRACT_JSON_PATH, contractJson(readFileSync(CONTRACT_PATH, 'utf8')));
