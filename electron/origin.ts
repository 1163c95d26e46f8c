// Where the renderer lives: a privileged custom scheme with one host. Kept apart so that security.ts and
// protocol.ts can both name it without importing each other.
export const APP_SCHEME = 'gmw';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True for a URL on our own origin (gmw://app/...); everything else is somewhere the window must not go. */
export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}
