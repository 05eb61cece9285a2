export {
  SchoolSearchClient,
  type GeoPoint,
  type SchoolSearchClientOptions,
  type SearchAllParams,
  type SearchParams,
} from './school-search-client.ts';
export { SchoolSearchApiError } from './api-error.ts';
export { SchoolSearchAccounts, type SchoolSearchAccountsOptions } from './school-search-accounts.ts';
export type { ClientClock } from './token-keeper.ts';
export type {
  Account,
  ApiRequest,
  Grade,
  MailAccepted,
  Problem,
  ProblemItem,
  RequestHistory,
  School,
  SchoolLevel,
  SchoolRecord,
  SchoolSearchResponse,
  SchoolTag,
  SchoolType,
  SchoolTypeFilter,
  SignUpOptions,
  StateCode,
  Token,
  TokenInfo,
  TokenList,
} from '../../../generated/types.gen.ts';
