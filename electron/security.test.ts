import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY, applySecurity, secureSession, secureWebContents, secureWebPreferences } from './security.ts';

type Listener = (...args: unknown[]) => unknown;

/** A webContents that records what security.ts registers on it. */
function fakeWebContents() {
  const listeners = new Map<string, Listener[]>();
  let windowOpenHandler: Listener | null = null;
  const contents = {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return contents;
    },
    setWindowOpenHandler(handler: Listener) {
      windowOpenHandler = handler;
    },
  };
  return {
    contents: contents as unknown as WebContents,
    /** Emits like Electron 45: details object first, the URL again as a deprecated argument. */
    emit(event: string, url: string, { deprecatedOnly = false } = {}) {
      const details = { url: deprecatedOnly ? undefined : url, preventDefault: vi.fn() };
      const registered = listeners.get(event) ?? [];
      expect(registered.length, `a listener for ${event}`).toBeGreaterThan(0);
      for (const listener of registered) listener(details, url, false, true);
      return details.preventDefault;
    },
    listeners,
    windowOpen: (url: string) => {
      if (windowOpenHandler === null) throw new Error('no window open handler was set');
      return windowOpenHandler({ url, frameName: '', features: '', disposition: 'new-window', referrer: {}, postBody: undefined });
    },
  };
}

function fakeSession() {
  const handlers: {
    request?: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void;
    check?: (webContents: unknown, permission: string, origin: string, details: unknown) => boolean;
    device?: (details: unknown) => boolean;
    beforeRequest?: { filter: { urls: string[] }; listener: (details: unknown, callback: (response: { cancel?: boolean }) => void) => void };
  } = {};
  const session = {
    setPermissionRequestHandler: (handler: typeof handlers.request) => (handlers.request = handler),
    setPermissionCheckHandler: (handler: typeof handlers.check) => (handlers.check = handler),
    setDevicePermissionHandler: (handler: typeof handlers.device) => (handlers.device = handler),
    webRequest: {
      onBeforeRequest: (filter: { urls: string[] }, listener: NonNullable<typeof handlers.beforeRequest>['listener']) =>
        (handlers.beforeRequest = { filter, listener }),
    },
  };
  return { session: session as unknown as Session, handlers };
}

describe('webPreferences', () => {
  const prefs = secureWebPreferences('/app/dist/electron/preload.cjs');

  it('isolates and sandboxes the renderer and keeps Node out of it', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on, refuses insecure content and <webview>, and turns spellcheck off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.spellcheck).toBe(false);
  });

  it('loads the given preload and nothing else', () => {
    expect(prefs.preload).toBe('/app/dist/electron/preload.cjs');
    expect(prefs).not.toHaveProperty('additionalArguments');
    expect(prefs).not.toHaveProperty('experimentalFeatures');
  });
});

describe('Content-Security-Policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );

  it('lets scripts come from the app itself only', () => {
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
  });

  it('never allows eval, and inline code only for style attributes', () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toContain('wasm-unsafe-eval');
    for (const [name, sources] of directives) {
      if (name !== 'style-src-attr') expect(sources, name).not.toContain("'unsafe-inline'");
    }
  });

  it('names no remote host, wildcard or network scheme', () => {
    for (const [name, sources] of directives) {
      for (const source of sources) {
        expect(source, `${name} ${source}`).toMatch(/^('self'|'none'|'unsafe-inline'|data:)$/);
      }
    }
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});

describe('navigation and new windows', () => {
  it('prevents navigation to any other origin', () => {
    const wc = fakeWebContents();
    secureWebContents(wc.contents);
    for (const url of ['https://example.com/', 'http://localhost:5173/', 'file:///etc/passwd', 'gmw://app.evil.example/', 'gmw://other/index.html', 'javascript:alert(1)']) {
      expect(wc.emit('will-navigate', url), url).toHaveBeenCalled();
      expect(wc.emit('will-redirect', url), url).toHaveBeenCalled();
      expect(wc.emit('will-frame-navigate', url), url).toHaveBeenCalled();
    }
  });

  it('lets the app navigate within gmw://app', () => {
    const wc = fakeWebContents();
    secureWebContents(wc.contents);
    expect(wc.emit('will-navigate', 'gmw://app/index.html')).not.toHaveBeenCalled();
    expect(wc.emit('will-redirect', 'gmw://app/')).not.toHaveBeenCalled();
  });

  it('still refuses when only the deprecated URL argument is given', () => {
    const wc = fakeWebContents();
    secureWebContents(wc.contents);
    expect(wc.emit('will-navigate', 'https://example.com/', { deprecatedOnly: true })).toHaveBeenCalled();
  });

  it('denies every new window, even one on our own origin', () => {
    const wc = fakeWebContents();
    secureWebContents(wc.contents);
    expect(wc.windowOpen('https://example.com/')).toEqual({ action: 'deny' });
    expect(wc.windowOpen('gmw://app/index.html')).toEqual({ action: 'deny' });
  });

  it('refuses to attach a <webview>', () => {
    const wc = fakeWebContents();
    secureWebContents(wc.contents);
    expect(wc.emit('will-attach-webview', 'https://example.com/')).toHaveBeenCalled();
  });
});

describe('permissions', () => {
  it('answers every permission request with false', () => {
    const { session, handlers } = fakeSession();
    secureSession(session);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) {
      const callback = vi.fn();
      handlers.request!({}, permission, callback, {});
      expect(callback, permission).toHaveBeenCalledExactlyOnceWith(false);
    }
  });

  it('answers every permission and device check with false', () => {
    const { session, handlers } = fakeSession();
    secureSession(session);
    expect(handlers.check!(null, 'media', 'gmw://app', {})).toBe(false);
    expect(handlers.check!(null, 'clipboard-sanitized-write', 'gmw://app', {})).toBe(false);
    expect(handlers.device!({ deviceType: 'usb', origin: 'gmw://app' })).toBe(false);
  });

  it('cancels every request that would leave the machine', () => {
    const { session, handlers } = fakeSession();
    secureSession(session);
    expect(handlers.beforeRequest!.filter.urls).toEqual(expect.arrayContaining(['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*']));
    const callback = vi.fn();
    handlers.beforeRequest!.listener({ url: 'https://example.com/' }, callback);
    expect(callback).toHaveBeenCalledExactlyOnceWith({ cancel: true });
  });

  it('applySecurity secures both the contents and the session', () => {
    const wc = fakeWebContents();
    const { session, handlers } = fakeSession();
    applySecurity(wc.contents, session);
    expect(wc.emit('will-navigate', 'https://example.com/')).toHaveBeenCalled();
    expect(handlers.request).toBeTypeOf('function');
    expect(handlers.check).toBeTypeOf('function');
  });
});
