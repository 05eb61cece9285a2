// The file-naming convention npm run lint holds the tree to (scripts/lint/file-names.ts).
import { expect, test } from 'vitest';
import { misnamed } from '../../scripts/lint/file-names.ts';

test('when a file is named in lower-case words and dashes, with a dot only before its role, then the name passes', () => {
  expect(
    misnamed([
      'src/domain/accounts/auth.service.ts',
      'src/search/memory/top-k-walk.ts',
      'src/search/memory/build.worker.ts',
      'test/search/memory.engine.test.ts',
      'test/domain/fakes.contract.test.ts',
      'src/mongodb-shared/catalog.port.ts',
      'docs/Anything.md',
    ]),
  ).toEqual([]);
});

test('when a name joins words with dots, capitals or underscores, then it is reported with the rule', () => {
  const problems = misnamed([
    'src/stores/sqlite/wal.file.ts',
    'src/search/memory/memoryIndex.ts',
    'src/Search/memory/trie.ts',
    'test/search/mongodb.scope.test.ts',
    'src/import/csv_reader.ts',
  ]);
  expect(problems).toHaveLength(5);
  expect(problems[0]).toMatch(/^src\/stores\/sqlite\/wal\.file\.ts: file names are lower-case words and dashes/);
  expect(problems[2]).toMatch(/folder "Search"/);
});
