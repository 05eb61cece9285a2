// What the client says when the generated SDK's zod validator refuses a request before it is
// sent: the server's own words for the same input (a problem's `errors[]` items: location, name,
// message), not zod's, which quote whole regular expressions. The server's messages are
// express-openapi-validator's (Ajv's) for bounds, lengths, enums and types, and its own for
// patterns (src/http/problems/library-errors.ts); the bounds and enum lists come from the zod
// issue, which has them from the contract. test/client/messages.test.ts compares both sides.
import type { ProblemItem } from '../../../generated/types.gen.ts';

/** A request the client refused before sending it; `errors` are what the server would answer in its 400. */
export class SchoolSearchValidationError extends Error {
  override readonly name = 'SchoolSearchValidationError';
  /** The problem type the server would answer with. */
  readonly type = '/problems/validation-error';
  readonly errors: ProblemItem[];

  constructor(errors: ProblemItem[], cause: unknown) {
    super(`Invalid request: ${errors.map(sentence).join('; ')}`, { cause });
    this.errors = errors;
  }
}

function sentence(item: ProblemItem): string {
  return `${item.name} ${item.message}`;
}

/** The server's plain words for inputs whose schema is a closed set written as a pattern, field by field (array items as `*`). */
const FIELD_MESSAGES: Readonly<Record<string, string>> = {
  'query:stateCode': 'is not a US or Canadian state, province or territory code (two letters, e.g. TX or on)',
};

/** The server's words for what a pattern means, field by field. */
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  'query:query': 'must have a character other than white space',
  'query:near': 'must be <latitude>,<longitude> in decimal degrees (e.g. 40.8136,-96.7026)',
  'body:/name': 'must have a visible character, and no control or format characters',
  'body:/origins/*': 'must be scheme://host[:port] with http or https, and no path, query or trailing slash',
};

/** The parts of a zod v4 issue this needs (zod's own types differ between its builds). */
interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: readonly unknown[];
  expected?: string;
  format?: string;
  pattern?: string;
}

/** A zod error from the SDK's request validator, as the server's problem items; undefined when it is something else. */
export function requestProblems(error: unknown): ProblemItem[] | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!(error instanceof Error) || error.name !== 'ZodError' || !Array.isArray(issues)) return undefined;
  const items: ProblemItem[] = [];
  const emptyQuery = new Set<string>();
  for (const issue of issues as Issue[]) {
    const [where, ...rest] = issue.path;
    if (where !== 'query' && where !== 'path' && where !== 'body') continue;
    const name = where === 'body' ? `/${rest.join('/')}` : rest.join('/');
    if (where === 'query' && isEmptyString(issue)) {
      // The validator refuses an empty query parameter before its schema is looked at: one item.
      if (!emptyQuery.has(name)) items.push({ location: where, name, message: emptyQueryMessage(name) });
      emptyQuery.add(name);
      continue;
    }
    if (emptyQuery.has(name)) continue;
    items.push({ location: where, name, message: message(issue, `${where}:${name.replace(/\/\d+(?=\/|$)/g, '/*')}`) });
  }
  return items.length > 0 ? items : undefined;
}

function isEmptyString(issue: Issue): boolean {
  return issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1;
}

function emptyQueryMessage(name: string): string {
  return `Empty value found for query parameter '${name}'`;
}

function message(issue: Issue, field: string): string {
  const plain = FIELD_MESSAGES[field];
  if (plain) return plain;
  const n = issue.minimum ?? issue.maximum;
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      const more = issue.code === 'too_big';
      if (issue.origin === 'string') return `must NOT have ${more ? 'more' : 'fewer'} than ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must NOT have ${more ? 'more' : 'fewer'} than ${n} items`;
      return `must be ${more ? '<' : '>'}${issue.inclusive ? '=' : ''} ${n}`;
    }
    case 'invalid_value':
      return `must be equal to one of the allowed values: ${(issue.values ?? []).map(String).join(', ')}`;
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'integer' : issue.expected}`;
    case 'invalid_format':
      if (issue.format === 'regex') return PATTERN_MESSAGES[field] ?? `must match pattern "${issue.pattern}"`;
      return `must match format "${issue.format}"`;
    case 'unrecognized_keys':
      return 'must NOT have additional properties';
    default:
      return issue.message;
  }
}
