export {
  SchoolSearchClient,
  type ApiKeyChanges,
  type GeoPoint,
  type PublishableKeyParams,
  type SchoolSearchClientOptions,
  type SearchAllParams,
  type SearchParams,
} from './school-search-client.ts';
export { SchoolSearchApiError } from './api-error.ts';
export { SchoolSearchValidationError } from './request-check.ts';
export { SchoolSearchAccounts, type SchoolSearchAccountsOptions } from './school-search-accounts.ts';
export type { ClientClock } from './token-keeper.ts';
export type {
  Account,
  ApiKey,
  ApiRequest,
  DailyUsage,
  KeyType,
  Grade,
  MailAccepted,
  Problem,
  ProblemItem,
  PublishableSettings,
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
