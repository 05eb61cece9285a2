// The values of publishable keys made or rotated in this tab, by token_id: the API shows a value
// once, and the try-it panel and the snippets need it. Kept in memory only (a reload forgets it,
// as it forgets the reveal panel); a publishable key is meant to be seen, but not to be stored
// where another tab or a later visitor of this browser could read it.
const values = new Map<string, string>();

export function rememberKey(tokenId: string, value: string): void {
  values.set(tokenId, value);
}

export function knownKey(tokenId: string): string | undefined {
  return values.get(tokenId);
}

export function forgetKey(tokenId: string): void {
  values.delete(tokenId);
}
