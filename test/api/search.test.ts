// The search rules on the default engine: the in-process index of the catalog (src/search/memory/).
import { searchRules } from './search-rules.ts';

searchRules({ name: 'in-process index' });
