// The token of a link from an e-mail (#confirm/<token>, #reset/<token>, #invitation/<token>):
// taken from the address bar at once, so that it is neither in the history nor on screen, nor
// sent anywhere but to the API. It is in the fragment, so no server request or Referer carried it.
const SHAPE = /^ssl_[A-Za-z0-9_-]{43}$/;

export function takeLinkToken(kind: string): string | null {
  const raw = location.hash.slice(`#${kind}/`.length);
  history.replaceState(null, '', `${location.pathname}#${kind}`);
  return SHAPE.test(raw) ? raw : null;
}
