// Helpers of the OWASP API Security Top 10 suite (test/security/): raw HTTP for what the generated
// client cannot send, the contract's response schemas as key allow-lists, and a bare server.
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadContract } from '../../src/http/contract.ts';
import { listen, type ServerLimits } from '../../src/http/server.ts';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fetch answer in the shape expectProblem() takes. */
export async function answer(response: Response): Promise<{ response: Response; error: unknown; text: string }> {
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    // not JSON: expectProblem will say so
  }
  return { response, error, text };
}

export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the first byte written to the last byte of the answer. */
  ms: number;
}

/**
 * Writes `parts` to a fresh TCP connection, each after its delay (ms from the start), and
 * resolves with the first HTTP answer, or undefined when none came within waitMs.
 */
export function rawRequest(
  baseUrl: string,
  parts: Array<[delayMs: number, data: string | Buffer]> | string | Buffer,
  waitMs = 2000,
): Promise<RawAnswer | undefined> {
  const { port, hostname } = new URL(baseUrl);
  const steps: Array<[number, string | Buffer]> =
    typeof parts === 'string' || Buffer.isBuffer(parts) ? [[0, parts]] : parts;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const started = performance.now();
    const timers: NodeJS.Timeout[] = [];
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (result: RawAnswer | undefined) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      resolve(result);
    };
    const parsed = (): RawAnswer | undefined => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
      const length = Number(headers['content-length'] ?? NaN);
      if (Number.isFinite(length) && body.length < length) return undefined;
      return {
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: body.toString('utf8'),
        ms: performance.now() - started,
      };
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const result = parsed();
      if (result) finish(result);
    });
    socket.on('error', () => undefined); // the server may close while we still write
    socket.on('close', () => finish(parsed()));
    for (const [delay, data] of steps) {
      timers.push(setTimeout(() => socket.writable && socket.write(data), delay));
    }
    timers.push(setTimeout(() => finish(undefined), waitMs));
  });
}

/** A raw answer in the shape expectProblem() takes. */
export function rawAsAnswer(raw: RawAnswer | undefined): { response?: Response; error?: unknown } {
  if (!raw) return {};
  const response = new Response(raw.body, { status: raw.status, headers: raw.headers });
  let error: unknown = raw.body;
  try {
    error = JSON.parse(raw.body);
  } catch {
    // left as text
  }
  return { response, error };
}

// ---------------------------------------------------------------------------------------------
// The contract as allow-lists of JSON keys.

type Schema = Record<string, unknown>;
const contract = loadContract() as unknown as Schema;

function resolve(node: unknown): Schema {
  let current = node as Schema;
  while (current && typeof current['$ref'] === 'string') {
    const pointer = (current['$ref'] as string).replace(/^#\//, '').split('/');
    current = pointer.reduce<Schema>((at, part) => at[part] as Schema, contract);
  }
  return current;
}

/** Every key path a body of this schema may have: `a`, `a.b`, `a.list[].c`. */
export function allowedKeyPaths(schema: unknown, prefix = '', into = new Set<string>()): Set<string> {
  const s = resolve(schema);
  for (const variant of [
    ...((s['oneOf'] ?? []) as unknown[]),
    ...((s['anyOf'] ?? []) as unknown[]),
    ...((s['allOf'] ?? []) as unknown[]),
  ]) {
    allowedKeyPaths(variant, prefix, into);
  }
  const properties = (s['properties'] ?? {}) as Record<string, unknown>;
  for (const [name, child] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${name}` : name;
    into.add(path);
    allowedKeyPaths(child, path, into);
  }
  if (s['items']) allowedKeyPaths(s['items'], `${prefix}[]`, into);
  return into;
}

/** Every key path a JSON value has, in the same notation. */
export function keyPaths(value: unknown, prefix = '', into: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) keyPaths(item, `${prefix}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${name}` : name;
      into.push(path);
      keyPaths(child, path, into);
    }
  }
  return into;
}

export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  /** Whether a credential is required (the operation's own `security`, else the document's). */
  secured: boolean;
  /** JSON schema of each documented response status (JSON or problem+json content). */
  responses: Map<number, Schema>;
}

export function contractOperations(): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(contract['paths'] as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const responses = new Map<number, Schema>();
      for (const [status, response] of Object.entries((op['responses'] ?? {}) as Record<string, unknown>)) {
        const content = (resolve(response)['content'] ?? {}) as Record<string, Schema>;
        const media = content['application/json'] ?? content['application/problem+json'];
        if (media?.['schema']) responses.set(Number(status), media['schema'] as Schema);
      }
      const security = (op['security'] ?? contract['security'] ?? []) as unknown[];
      operations.push({
        operationId: op['operationId'] as string,
        method: method.toUpperCase(),
        path,
        secured: security.length > 0,
        responses,
      });
    }
  }
  return operations;
}

/** The methods the contract declares for each path, e.g. '/v1/auth' → ['DELETE', 'POST']. */
export function contractMethods(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const op of contractOperations()) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method].sort());
  return byPath;
}

/** A contract path template with its parameters filled in. */
export function concretePath(template: string): string {
  return template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
}

export function contractValue<T>(pointer: string): T {
  return pointer.split('/').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], contract) as T;
}

// ---------------------------------------------------------------------------------------------
/** A server with only the listen() wrapping around a trivial handler, with the given limits. */
export async function startBareServer(
  limits?: ServerLimits,
): Promise<{ baseUrl: string; server: Server; close(): Promise<void> }> {
  const server = await listen(
    (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    },
    0,
    '127.0.0.1',
    undefined,
    limits,
  );
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () => closeServer(server),
  };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
