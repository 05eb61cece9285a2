// The typed seam between the contract and the code: one entry per operationId, with the
// generated request and response types. Adding an operation to the contract and regenerating
// makes `Handlers` incomplete, which fails to compile until a handler exists.
import type { z } from 'zod';
import type * as api from '../../../generated/types.gen.ts';
import type * as sdk from '../../../generated/sdk.gen.ts';
import type * as schemas from '../../../generated/zod.gen.ts';

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
  createPublishableKey: { data: api.CreatePublishableKeyData; responses: api.CreatePublishableKeyResponses };
  updateApiKey: { data: api.UpdateApiKeyData; responses: api.UpdateApiKeyResponses };
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

/**
 * A request part of an operation as the handler receives it: the output type of the part's
 * generated schema (`z<OperationId>Query`, `…Path`, `…Body`), which is the contract's type with
 * every field the contract gives a default present. express-openapi-validator has checked the part,
 * coerced it and filled in those defaults (its Ajv runs with useDefaults) before the handler runs,
 * so no handler repeats a default. Types only: the server runs no generated code (no second validator).
 */
type Part<O extends string, P extends 'Query' | 'Path' | 'Body'> = `z${Capitalize<O>}${P}` extends keyof typeof schemas
  ? z.output<(typeof schemas)[`z${Capitalize<O>}${P}`]>
  : never;

/** What a handler receives: the validated, type-coerced and defaulted request parts. */
export interface Input<O extends keyof Operations> {
  readonly query: Part<O, 'Query'>;
  readonly path: Part<O, 'Path'>;
  readonly body: Part<O, 'Body'>;
}

type Status<O extends keyof Operations> = Extract<keyof Operations[O]['responses'], number>;

/**
 * A JSON body already written, in pieces sent one after the other (dispatch.ts writes them as
 * they are): a `T`, which keeps a handler from replying with the JSON of another body than its
 * status's.
 */
export class SerializedJson<T> {
  declare readonly of?: T;
  readonly pieces: readonly string[];
  /**
   * When every piece after the first is a kept answer's (the search's, kept-answers.ts): that kept
   * answer, beside which their compressed forms are kept (compression/spliced-answers.ts).
   */
  readonly keptTail: object | undefined;
  constructor(...pieces: string[]) {
    this.pieces = pieces;
    this.keptTail = undefined;
  }

  /** The head, then the pieces of a kept answer (undefined: not kept, nothing to keep beside it). */
  static around<T>(kept: object | undefined, head: string, ...tail: string[]): SerializedJson<T> {
    const body = new SerializedJson<T>(head, ...tail);
    (body as { keptTail: object | undefined }).keptTail = kept;
    return body;
  }

  get byteLength(): number {
    let bytes = 0;
    for (const piece of this.pieces) bytes += Buffer.byteLength(piece);
    return bytes;
  }

  toString(): string {
    return this.pieces.join('');
  }
}

/** What a handler returns: one of the statuses the contract declares, with its body. */
export type Reply<O extends keyof Operations> = {
  [S in Status<O>]: {
    status: S;
    body: Operations[O]['responses'][S] | SerializedJson<Operations[O]['responses'][S]>;
    headers?: Record<string, string>;
    contentType?: string;
  };
}[Status<O>];
