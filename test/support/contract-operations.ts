// Every operation of the contract, with a valid request built from the contract's own examples,
// so a new operation is checked against the mock without anyone listing it here.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export const CONTRACT_PATH = new URL('../../openapi/openapi.yaml', import.meta.url);

// biome-ignore lint/suspicious/noExplicitAny: a walk over parsed YAML of any shape.
type Node = Record<string, any>;

export interface MediaExamples {
  readonly contentType: string | undefined;
  /** Named examples in contract order; Prism's static mode serves the first. */
  readonly examples: ReadonlyArray<readonly [name: string, value: unknown]>;
}

export interface ContractOperation {
  readonly operationId: string;
  readonly method: string;
  /** Path with parameters filled in from their examples, plus a query string. */
  readonly url: string;
  readonly body: unknown;
  readonly secured: boolean;
  readonly success: MediaExamples & { readonly status: number };
  readonly errors: ReadonlyArray<MediaExamples & { readonly status: number }>;
  readonly parameters: readonly Node[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export function loadContractOperations(): ContractOperation[] {
  const doc = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Node;
  const deref = (node: Node): Node => {
    if (typeof node?.['$ref'] !== 'string') return node;
    const target = (node['$ref'] as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Node>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    return deref(target);
  };
  const mediaExamples = (content: Node | undefined): MediaExamples => {
    const [contentType, media] = Object.entries(content ?? {})[0] ?? [undefined, undefined];
    if (!media) return { contentType: undefined, examples: [] };
    if (media.examples) {
      return {
        contentType,
        examples: Object.entries(media.examples as Node).map(([name, ex]) => [name, deref(ex)['value']] as const),
      };
    }
    return { contentType, examples: media.example === undefined ? [] : [['example', media.example]] };
  };

  // Credentials in the query (the deprecated tokenID, a publishable `key`) are a caller's, not an
  // example's: a request built here carries only what its test gives it.
  const credentials = new Set(
    Object.values((doc['components']?.['securitySchemes'] ?? {}) as Node)
      .filter((scheme) => scheme['type'] === 'apiKey' && scheme['in'] === 'query')
      .map((scheme) => scheme['name'] as string),
  );
  const operations: ContractOperation[] = [];
  for (const [template, item] of Object.entries(doc['paths'] as Node)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method] as Node;
      const parameters = [...(item['parameters'] ?? []), ...(op['parameters'] ?? [])].map(deref);
      const exampleOf = (p: Node) =>
        p['example'] ?? p['schema']?.['example'] ?? deref(p['schema'] ?? {})['examples']?.[0];
      let path = template;
      const query = new URLSearchParams();
      for (const p of parameters) {
        const example = exampleOf(p);
        if (example === undefined) {
          if (p['required']) throw new Error(`${op['operationId']}: required parameter ${p['name']} has no example`);
          continue;
        }
        if (p['in'] === 'path') path = path.replace(`{${p['name']}}`, encodeURIComponent(String(example)));
        if (p['in'] === 'query' && !p['deprecated'] && !credentials.has(p['name']))
          query.set(p['name'], String(example));
      }
      const requestBody = op['requestBody'] ? deref(op['requestBody']) : undefined;
      const body = requestBody ? mediaExamples(requestBody['content']).examples[0]?.[1] : undefined;
      if (requestBody?.['required'] && body === undefined)
        throw new Error(`${op['operationId']}: the request body has no example`);
      const security = (op['security'] ?? doc['security'] ?? []) as Node[];
      const responses = Object.entries(op['responses'] as Node).map(([status, r]) => ({
        status: Number(status),
        ...mediaExamples(deref(r)['content']),
      }));
      const success = responses.find((r) => r.status >= 200 && r.status < 300);
      if (!success) throw new Error(`${op['operationId']}: no 2xx response`);
      operations.push({
        operationId: op['operationId'],
        method: method.toUpperCase(),
        url: query.size ? `${path}?${query}` : path,
        body,
        // An empty requirement ({}) would make the credentials optional.
        secured: security.length > 0 && security.every((s) => Object.keys(s).length > 0),
        success,
        errors: responses.filter((r) => r.status >= 400),
        parameters,
      });
    }
  }
  return operations;
}
