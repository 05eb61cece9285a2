// The server runs with the same Node.js flags wherever it is started for real: `npm start`, the
// Docker image, and the bench and soak that measure it (src/server-flags.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('server flags', () => {
  test('when the server is started by npm start or by the Docker image, then with SERVER_NODE_FLAGS', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['start'];
    expect(start).toBe(['node', ...SERVER_NODE_FLAGS, 'src/main.ts'].join(' '));
    expect(read('Dockerfile')).toContain(
      `CMD ${JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'src/main.ts']).replaceAll(',', ', ')}`,
    );
  });
});
