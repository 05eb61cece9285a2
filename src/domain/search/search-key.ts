// The one key of a search's scope and of a whole search: what every cache of answers or counts
// keys by (the answers given again, the in-process index's answers, the MongoDB engines' counts),
// so that no two caches can disagree on which searches are the same. Lists count as sets (the
// order a client gives levels or types in changes nothing), and a point without a radius is part
// of the scope (it orders the answer) unless the caller drops it, as a count does.
import type { SearchRequest } from './engine.port.ts';
import type { SearchScope } from './filters.ts';

export function scopeKey(scope: SearchScope): string {
  const list = (values: readonly string[] | undefined) => (values === undefined ? '*' : [...values].sort().join(','));
  const near = scope.near === undefined ? '*' : `${scope.near.latitude},${scope.near.longitude}`;
  return `${scope.stateCode ?? '*'}|${list(scope.level)}|${list(scope.type)}|${near}|${scope.radiusKm ?? '*'}`;
}

/** Everything a search's answer depends on: its words as typed, its scope and its page. */
export function requestKey(request: SearchRequest): string {
  return `${request.offset}|${request.limit}|${scopeKey(request)}|${request.query}`;
}
