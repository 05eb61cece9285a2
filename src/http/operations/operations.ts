// The typed seam between the contract and the code: one entry per operationId, with the
// generated request and response types. Adding an operation to the contract and regenerating
// makes `Handlers` incomplete, which fails to compile until a handler exists.
import type * as api from '../../../generated/types.gen.ts';
import type * as sdk from '../../../generated/sdk.gen.ts';

export interface Operations {
  createToken: { data: api.CreateTokenData; responses: api.CreateTokenResponses };
  revokeCurrentToken: { data: api.RevokeCurrentTokenData; responses: api.RevokeCurrentTokenResponses };
  rotateToken: { data: api.RotateTokenData; responses: api.RotateTokenResponses };
  listMyTokens: { data: api.ListMyTokensData; responses: api.ListMyTokensResponses };
  revokeMyToken: { data: api.RevokeMyTokenData; responses: api.RevokeMyTokenResponses };
  fetchSchoolSearch: { data: api.FetchSchoolSearchData; responses: api.FetchSchoolSearchResponses };
  fetchMyData: { data: api.FetchMyDataData; responses: api.FetchMyDataResponses };
  fetchMyRequests: { data: api.FetchMyRequestsData; responses: api.FetchMyRequestsResponses };
  fetchMyUsage: { data: api.FetchMyUsageData; responses: api.FetchMyUsageResponses };
  createApiKey: { data: api.CreateApiKeyData; responses: api.CreateApiKeyResponses };
  rotateApiKey: { data: api.RotateApiKeyData; responses: api.RotateApiKeyResponses };
  changePassword: { data: api.ChangePasswordData; responses: api.ChangePasswordResponses };
  getSignUpOptions: { data: api.GetSignUpOptionsData; responses: api.GetSignUpOptionsResponses };
  signUp: { data: api.SignUpData; responses: api.SignUpResponses };
  confirmSignUp: { data: api.ConfirmSignUpData; responses: api.ConfirmSignUpResponses };
  acceptInvitation: { data: api.AcceptInvitationData; responses: api.AcceptInvitationResponses };
  requestPasswordReset: { data: api.RequestPasswordResetData; responses: api.RequestPasswordResetResponses };
  resetPassword: { data: api.ResetPasswordData; responses: api.ResetPasswordResponses };
  getSchool: { data: api.GetSchoolData; responses: api.GetSchoolResponses };
  getSchoolImage: { data: api.GetSchoolImageData; responses: { 200: string } };
  getLiveness: { data: api.GetLivenessData; responses: api.GetLivenessResponses };
  getReadiness: { data: api.GetReadinessData; responses: api.GetReadinessResponses };
}

/** Every operationId of the contract, read off the generated SDK (one function per operation). */
export type OperationId = keyof typeof sdk;

// Compile-time check that Operations lists exactly the contract's operations.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const operationsMatchContract: Same<keyof Operations, OperationId> = true;
void operationsMatchContract;

type Field<D, K extends string> = D extends { [P in K]?: infer V } ? Exclude<V, undefined> : never;

/** What a handler receives: the validated (and type-coerced) request parts. */
export interface Input<O extends keyof Operations> {
  readonly query: Field<Operations[O]['data'], 'query'>;
  readonly path: Field<Operations[O]['data'], 'path'>;
  readonly body: Field<Operations[O]['data'], 'body'>;
}

/** What a handler returns: one of the statuses the contract declares, with its body. */
export type Reply<O extends keyof Operations> = {
  [S in keyof Operations[O]['responses']]: {
    status: S;
    body: Operations[O]['responses'][S];
    headers?: Record<string, string>;
    contentType?: string;
  };
}[keyof Operations[O]['responses']];
