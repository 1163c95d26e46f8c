// Web mode: the same handler table over HTTP, for browsers on this machine only. It listens on 127.0.0.1, needs
// the per-launch token on every request (as an HttpOnly SameSite=Strict cookie set from the launch URL, or an
// Authorization: Bearer header), and checks Host (against DNS rebinding) and Origin (against other sites).
// Besides one POST per call, the page keeps one WebSocket (`/api/socket`) for its calls: a request over an open
// socket costs a fraction of a browser's HTTP round trip, and the runner's key presses wait on it. The socket is
// opened under the same checks (Origin required) and carries the same envelopes.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Envelope, ErrorKind } from '../core/api/contract.ts';
import { IMPORT_REQUEST_MAX_BYTES } from '../core/export/campaign.ts';
import type { AppService } from './app.ts';

export const LOOPBACK = '127.0.0.1';
export const MAX_BODY_BYTES = 1024 * 1024;
/** Imports carry a whole file (the importer itself refuses files over its own limit with a sentence). */
const IMPORT_HANDLERS = new Set(['imports:campaign', 'imports:encounter']);
const bodyLimit = (name: string) => (IMPORT_HANDLERS.has(name) ? IMPORT_REQUEST_MAX_BYTES : MAX_BODY_BYTES);
const tooLargeMessage = (limit: number) => `The request is larger than ${Math.round(limit / (1024 * 1024))} MB.`;

/** The same policy as the desktop window (core/api/csp.ts). */
export { CONTENT_SECURITY_POLICY } from '../core/api/csp.ts';
import { CONTENT_SECURITY_POLICY } from '../core/api/csp.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.json': 'application/json',
};

/** Where the page opens its WebSocket; a message is `{id, name, input}` and its answer `{id, reply}`. */
export const SOCKET_PATH = '/api/socket';

const STATUS_BY_KIND: Record<ErrorKind, number> = { refused: 409, stale: 409, invalid: 400, notFound: 404, internal: 500 };

export interface WebServerOptions {
  service: AppService;
  /** The built renderer (index.html and assets). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed only in tests; a random 256-bit token otherwise. */
  token?: string;
}

export interface WebServer {
  url: string;
  /** The address to open: it carries the token once, then the cookie does. */
  launchUrl: string;
  port: number;
  token: string;
  server: Server;
  close(): Promise<void>;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

function cookies(req: IncomingMessage): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) jar.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return jar;
}

/** The path with its %-escapes decoded, or null when one is malformed. */
function decodedPath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new RangeError('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const staticRoot = resolve(options.staticDir);
  const streams = new Set<ServerResponse>();
  let port = 0;
  let cookieName = '';

  const allowedHosts = () => new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://${LOOPBACK}:${port}`, `http://localhost:${port}`]);

  function authorised(req: IncomingMessage): boolean {
    const header = req.headers.authorization;
    if (header?.startsWith('Bearer ') && sameSecret(header.slice(7), token)) return true;
    const cookie = cookies(req).get(cookieName);
    return cookie !== undefined && sameSecret(cookie, token);
  }

  function serveStatic(pathname: string, res: ServerResponse): void {
    const decoded = decodedPath(pathname);
    // A broken escape (`/%E0%A4%A`) is the address's fault, not the app's: a plain answer, nothing logged.
    if (decoded === null) return send(res, 400, 'This address is not valid.');
    const relative = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = normalize(join(staticRoot, relative));
    if (!file.startsWith(staticRoot + sep) || !existsSync(file) || !statSync(file).isFile()) {
      send(res, 404, 'Not found.');
      return;
    }
    res.writeHead(200, {
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': relative === 'index.html' ? 'no-store' : 'private, max-age=3600',
    });
    createReadStream(file).pipe(res);
  }

  async function serveApi(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      send(res, 405, 'Use POST.', undefined, { Allow: 'POST' });
      return;
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      sendJson(res, 415, { error: { message: 'Requests must be JSON.', kind: 'invalid' } });
      return;
    }
    const limit = bodyLimit(name);
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      res.setHeader('Connection', 'close');
      res.on('finish', () => req.destroy());
      sendJson(res, 413, { error: { message: tooLargeMessage(limit), kind: 'invalid' } });
      return;
    }
    let input: unknown;
    try {
      const body = await readBody(req, limit);
      input = body.length === 0 ? {} : JSON.parse(body);
    } catch (error) {
      const tooLarge = error instanceof RangeError;
      if (tooLarge) {
        res.setHeader('Connection', 'close');
        res.on('finish', () => req.destroy());
      }
      const message = tooLarge ? tooLargeMessage(limit) : 'The request is not valid JSON.';
      sendJson(res, error instanceof RangeError ? 413 : 400, { error: { message, kind: 'invalid' } });
      return;
    }
    const envelope = await options.service.dispatch(name, input);
    sendJson(res, 'error' in envelope ? STATUS_BY_KIND[envelope.error.kind] : 200, envelope);
  }

  function serveChanges(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  /** One call over the socket: parsed and dispatched like a POST, answered with the same envelope. */
  async function answer(socket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    let call: { id?: unknown; name?: unknown; input?: unknown };
    try {
      if (isBinary) throw new TypeError('binary');
      call = JSON.parse(data.toString()) as typeof call;
      if (call === null || typeof call !== 'object') throw new TypeError('not an object');
    } catch {
      socket.send(JSON.stringify({ id: null, reply: { error: { message: 'The request is not valid JSON.', kind: 'invalid' } } }));
      return;
    }
    const id = Number.isSafeInteger(call.id) ? call.id : null;
    const reply: Envelope<unknown> =
      typeof call.name === 'string' && call.name.length <= 100
        ? await options.service.dispatch(call.name, call.input ?? {})
        : { error: { message: 'The request names no action.', kind: 'invalid' } };
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id, reply }));
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  sockets.on('connection', (socket: WebSocket) => {
    // A message over the size limit (or a broken frame) closes the socket; the page then reopens it or uses HTTP.
    socket.on('error', () => socket.terminate());
    socket.on('message', (data, isBinary) => {
      answer(socket, data, isBinary).catch((error: unknown) => {
        console.error('[gmw] web socket call failed:', error);
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id: null, reply: { error: { message: 'Something went wrong.', kind: 'internal' } } }));
      });
    });
  });

  /** Refuses an upgrade with a plain HTTP answer; the connection closes once it is sent (at the latest after 1 s). */
  function refuseUpgrade(socket: Socket, status: number, text: string): void {
    socket.setTimeout(1000, () => socket.destroy());
    socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  const unsubscribe = options.service.onChange((notice) => {
    for (const stream of streams) stream.write(`data: ${JSON.stringify(notice)}\n\n`);
  });

  const server = createServer((req, res) => {
    void (async () => {
      if (!allowedHosts().has(req.headers.host ?? '')) return send(res, 403, 'This address is not allowed.');
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins().has(origin)) return send(res, 403, 'Requests from other sites are not allowed.');
      const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
      const offered = url.searchParams.get('token');
      if (offered !== null && req.method === 'GET' && url.pathname === '/') {
        if (!sameSecret(offered, token)) return send(res, 401, 'This access token is not valid for this launch. Use the address printed in the terminal.');
        return send(res, 303, '', undefined, {
          Location: '/',
          'Set-Cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        });
      }
      if (!authorised(req)) {
        return send(res, 401, 'GM Workstation needs its access token: open the address printed in the terminal where it was started.');
      }
      if (url.pathname === '/api/changes') return serveChanges(req, res);
      if (url.pathname.startsWith('/api/')) return serveApi(url.pathname.slice(5), req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed.');
      return serveStatic(url.pathname, res);
    })().catch((error: unknown) => {
      console.error('[gmw] web request failed:', error);
      if (!res.headersSent) send(res, 500, 'Something went wrong.');
      else res.end();
    });
  });

  // The socket opens only from this app's own page: Host and Origin must both be ours (a browser always sends
  // Origin on a WebSocket, so its absence means a client that is not a page of this app), and the token must come.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!allowedHosts().has(req.headers.host ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!allowedOrigins().has(req.headers.origin ?? '')) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!authorised(req)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`).pathname !== SOCKET_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      port = (server.address() as AddressInfo).port;
      cookieName = `gmw_token_${port}`;
      const url = `http://${LOOPBACK}:${port}/`;
      resolvePromise({
        url,
        launchUrl: `${url}?token=${token}`,
        port,
        token,
        server,
        close: () =>
          new Promise((done) => {
            unsubscribe();
            for (const stream of streams) stream.end();
            for (const socket of sockets.clients) socket.terminate();
            sockets.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
