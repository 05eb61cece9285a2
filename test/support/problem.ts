import { expect } from 'vitest';
import { zProblem } from '../../generated/zod.gen.ts';

/** Sends the request exactly as given: the server's validation is what is under test. */
export const unchecked = { requestValidator: undefined } as const;

interface Answer {
  response?: Response;
  error?: unknown;
}

/** Asserts an RFC 9457 answer: status, problem type, media type and the members every problem has. */
export function expectProblem(
  answer: Answer,
  status: number,
  slug: string,
): { detail: string; errors?: Array<{ location: string; name: string; message: string }> } {
  expect(answer.response?.status).toBe(status);
  expect(answer.response?.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = answer.error as Record<string, unknown>;
  // The validator checks only JSON success bodies; problem bodies are checked here.
  zProblem.parse(body);
  expect(body).toMatchObject({ type: `/problems/${slug}`, status });
  expect(typeof body['title']).toBe('string');
  expect(typeof body['detail']).toBe('string');
  expect(body['request_id']).toBe(answer.response?.headers.get('x-request-id'));
  // Nothing internal leaks: no stack traces, SQL or driver names.
  expect(JSON.stringify(body)).not.toMatch(/at .+\.ts:\d+|SQLITE|sqlite|SELECT |node_modules/);
  return body as never;
}
