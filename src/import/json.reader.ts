// Canonical JSON: one array of objects with the canonical fields (as in NDJSON). Each element is
// a row, reported by its index and the line it starts on.
import { jsonArrayElements } from './json-elements.ts';
import { canonicalObject } from './ndjson.reader.ts';
import type { SourceReader } from './source.ts';

export const readJsonArray: SourceReader = async function* (utf8, onProgress) {
  for (const item of jsonArrayElements(utf8, onProgress)) {
    if ('error' in item) yield item;
    else yield { line: item.line, element: item.element, ...canonicalObject(item.value) };
  }
};
