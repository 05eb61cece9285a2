export { SchoolSearchClient, type SchoolSearchClientOptions, type SearchParams } from './school-search-client.ts';
export { SchoolSearchApiError } from './api-error.ts';
export type { ClientClock } from './token-keeper.ts';
export type {
  Account,
  ApiRequest,
  Grade,
  Problem,
  ProblemItem,
  RequestHistory,
  School,
  SchoolLevel,
  SchoolSearchResponse,
  SchoolTag,
  SchoolType,
  StateCode,
  Token,
  TokenInfo,
  TokenList,
} from '../../generated/types.gen.ts';
