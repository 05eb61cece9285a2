// The contract's defaults of the paged operations' `offset` and `limit`.
export const DEFAULT_OFFSET = 0;
export const DEFAULT_LIMIT = 25;
