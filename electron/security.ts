// The window's security settings in one place, so a test can hold each one down: an isolated, sandboxed renderer
// that loads only our own gmw://app pages, opens nothing else, and is granted no permission.
import type { Session, WebContents, WebPreferences } from 'electron';
import { isAppUrl } from './origin.ts';

/** Every preference that keeps the renderer away from Node and from other sites; `preload` is the only input. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
    navigateOnDragDrop: false,
  };
}

/** Sent with every gmw://app response (core/api/csp.ts). */
export { CONTENT_SECURITY_POLICY } from '../core/api/csp.ts';

// Electron 45 passes the details object first and the URL again as a deprecated second argument.
interface NavigationDetails {
  url?: string;
  preventDefault(): void;
}

function refuseForeignNavigation(details: NavigationDetails, deprecatedUrl?: string): void {
  const url = details.url ?? deprecatedUrl ?? '';
  if (!isAppUrl(url)) details.preventDefault();
}

/** Keeps one window's contents on gmw://app: no navigation or redirect away, no new windows, no <webview>. */
export function secureWebContents(webContents: WebContents): void {
  webContents.on('will-navigate', refuseForeignNavigation);
  webContents.on('will-redirect', refuseForeignNavigation);
  webContents.on('will-frame-navigate', refuseForeignNavigation);
  webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  webContents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The app needs no camera, microphone, notifications, devices or network: refuse every permission and request. */
export function secureSession(session: Session): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  // Offline app: whatever the CSP misses, no request leaves the machine.
  session.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'ftp://*/*'] },
    (_details, callback) => callback({ cancel: true }),
  );
}

/** Both halves, for the one window and its session. */
export function applySecurity(webContents: WebContents, session: Session): void {
  secureWebContents(webContents);
  secureSession(session);
}
