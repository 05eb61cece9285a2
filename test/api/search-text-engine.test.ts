// The search rules on the $text engine (MONGODB_SEARCH=text): its pipelines run by mingo over the
// documents the adapter writes (scripts/quality/mingo-search.ts), as no server here has $text. The
// GitHub workflow's MongoDB 8 job runs the engine on the server itself (test/search/mongodb-text-engine.test.ts).
import { mingoTextEngine } from '../../scripts/quality/mingo-search.ts';
import { searchRules } from './search-rules.ts';

searchRules({
  name: '$text engine (pipelines run by mingo)',
  engine: mingoTextEngine(),
  withoutTypos: 'the text index matches whole tokens only: typos need MONGODB_SEARCH=memory (the default) or atlas',
});
