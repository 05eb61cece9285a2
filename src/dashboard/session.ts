// The dashboard's credential: a session token from POST /v1/auth, kept in this tab's
// sessionStorage. A reload keeps it (no new sign-in within the token's life); closing the tab
// forgets it; other tabs and sites never see it. Why not a cookie: docs/dashboard.md.
const KEY = 'school-search.dashboard.session';

export interface Session {
  readonly token: string;
  readonly tokenId: string;
  readonly expiresAt: string;
  readonly email: string;
}

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    if (typeof session.token !== 'string' || Date.parse(session.expiresAt) <= Date.now()) {
      sessionStorage.removeItem(KEY);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}
