// The renderer is served from gmw://app/, a privileged custom scheme, instead of file://: it gets a real origin
// (so the CSP's 'self' means "this app" and nothing on disk besides dist/renderer is reachable) and relative
// asset URLs resolve as on the web.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { APP_ORIGIN, APP_SCHEME } from './origin.ts';
import { CONTENT_SECURITY_POLICY } from './security.ts';

/**
 * For `protocol.registerSchemesAsPrivileged`, before the app is ready. `standard` gives the scheme an origin and
 * relative URLs, `secure` makes it a secure context, `supportFetchAPI` lets the renderer fetch its own assets;
 * `corsEnabled` because Vite emits `<script type="module" crossorigin>`, which is fetched in CORS mode. `codeCache`
 * lets V8 keep what it compiled of the renderer's scripts between starts (a custom scheme has none by default, and
 * compiling the start's script is part of every start: docs/performance.md "Start"); Electron allows it on a
 * standard scheme only.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
} as const;

/**
 * The file inside `rendererRoot` that a gmw://app URL names, or null when the URL is not ours or tries to leave
 * the folder (`..` segments, encoded or not, backslashes, NUL bytes). `gmw://app/` is index.html.
 */
export function resolveAppPath(url: string, rendererRoot: string): string | null {
  const prefix = `${APP_ORIGIN}/`;
  if (!url.toLowerCase().startsWith(prefix)) return null;
  // The raw path, not `new URL().pathname`: the URL parser would quietly fold `..` away, and we refuse it instead.
  const rawPath = url.slice(prefix.length).split(/[?#]/, 1)[0] ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const segments = decoded.split(/[/\\]/);
  if (segments.some((segment) => segment === '..')) return null;
  const relative = segments.filter((segment) => segment !== '' && segment !== '.');
  if (relative.length === 0 || decoded.endsWith('/')) relative.push('index.html');
  const root = path.resolve(rendererRoot);
  const file = path.resolve(root, ...relative);
  return isInside(root, file) ? file : null;
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

function responseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: responseHeaders('text/plain; charset=utf-8') });
}

/**
 * The `protocol.handle('gmw', ...)` handler: serves files from `rendererRoot` only, every response (404s too)
 * carrying the CSP. Symbolic links that point outside the folder are refused like `..`.
 */
export function createAppProtocolHandler(rendererRoot: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method not allowed.');
    const file = resolveAppPath(request.url, rendererRoot);
    if (file === null) return textResponse(404, 'Not found.');
    try {
      const [realRoot, realFile] = await Promise.all([realpath(rendererRoot), realpath(file)]);
      if (!isInside(realRoot, realFile) || !(await stat(realFile)).isFile()) return textResponse(404, 'Not found.');
      const body = request.method === 'HEAD' ? null : await readFile(realFile);
      const contentType = CONTENT_TYPES[path.extname(realFile).toLowerCase()] ?? 'application/octet-stream';
      return new Response(body, { status: 200, headers: responseHeaders(contentType) });
    } catch {
      return textResponse(404, 'Not found.');
    }
  };
}
