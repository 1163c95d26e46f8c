// Web mode's guards: loopback only, the per-launch token on every request, Host and Origin checks.
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';
import { CONTENT_SECURITY_POLICY, SOCKET_PATH, startWebServer, type WebServer } from './web.ts';

let dir: TempDir;
let service: AppService;
let web: WebServer;

beforeEach(async () => {
  dir = tempDir();
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>GM Workstation</title>');
  writeFileSync(join(dir.path, 'secret.txt'), 'outside');
  service = openApp({ databasePath: dir.file(), transport: 'web', version: 'test' });
  web = await startWebServer({ service, staticDir });
});
afterEach(async () => {
  await web.close();
  service.close();
  dir.remove();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method: options.method ?? 'GET', headers: { Host: `127.0.0.1:${web.port}`, ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const bearer = () => ({ Authorization: `Bearer ${web.token}` });
const api = (name: string, body: unknown, headers: Record<string, string> = bearer()) =>
  call(`/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('web mode', () => {
  it('listens on 127.0.0.1 only, with a long random token', () => {
    expect(web.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(web.token.length).toBeGreaterThanOrEqual(43);
    expect(web.launchUrl).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
  });

  it('refuses every request without the token', async () => {
    expect((await call('/')).status).toBe(401);
    expect((await call('/index.html')).status).toBe(401);
    expect((await api('campaigns:list', {}, {})).status).toBe(401);
    expect((await api('campaigns:list', {}, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('/?token=wrong')).status).toBe(401);
  });

  it('trades the launch token for an HttpOnly SameSite=Strict cookie that then opens the app', async () => {
    const launch = await call(`/?token=${web.token}`);
    expect(launch.status).toBe(303);
    const cookie = String(launch.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await call('/', { headers: { Cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.body).toContain('GM Workstation');
  });

  it('checks Host against DNS rebinding and Origin against other sites', async () => {
    expect((await call('/', { headers: { ...bearer(), Host: `evil.example:${web.port}` } })).status).toBe(403);
    expect((await api('campaigns:list', {}, { ...bearer(), Origin: 'http://evil.example' })).status).toBe(403);
    expect((await api('campaigns:list', {}, { ...bearer(), Origin: `http://localhost:${web.port}` })).status).toBe(200);
  });

  it('runs the same handler table, with errors as sentences in the envelope', async () => {
    const created = await api('campaigns:create', { name: 'Over HTTP', rulesetId: 'enigma' });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body).result.name).toBe('Over HTTP');
    const refused = await api('campaigns:create', { name: 'x'.repeat(10_000), rulesetId: 'enigma' });
    expect([refused.status, JSON.parse(refused.body).error.message]).toEqual([400, 'A name is at most 80 characters.']);
    const malformed = await call('/api/campaigns:list', { method: 'POST', headers: { ...bearer(), 'Content-Type': 'application/json' }, body: '{nope' });
    expect([malformed.status, JSON.parse(malformed.body).error.message]).toEqual([400, 'The request is not valid JSON.']);
    const unknown = await api('campaigns:drop', {});
    expect(JSON.parse(unknown.body).error.message).toBe('Unknown request.');
    const huge = await api('campaigns:create', { name: 'y'.repeat(2 * 1024 * 1024), rulesetId: 'enigma' });
    expect(huge.status).toBe(413);
    const list = JSON.parse((await api('campaigns:list', {})).body).result;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Over HTTP']);
  });

  it('does not serve files outside the renderer folder', async () => {
    expect((await call('/../secret.txt', { headers: bearer() })).status).toBe(404);
    expect((await call('/%2e%2e/secret.txt', { headers: bearer() })).status).toBe(404);
  });

  it('answers a malformed %-escape with 400 and a sentence, logging nothing', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const path of ['/%E0%A4%A', '/assets/%', '/%C0%AF..%2Fsecret.txt']) {
        const reply = await call(path, { headers: bearer() });
        expect(reply.status).toBe(400);
        expect(reply.body).toBe('This address is not valid.');
      }
      expect((await api('%E0%A4%A', {})).status).toBe(400);
      expect(logged).not.toHaveBeenCalled();
      expect((await call('/', { headers: bearer() })).status).toBe(200); // the server goes on
    } finally {
      logged.mockRestore();
    }
  });
});

describe("web mode's socket", () => {
  const page = () => `http://127.0.0.1:${web.port}`;
  const cookie = async () => String((await call(`/?token=${web.token}`)).headers['set-cookie']).split(';')[0]!;

  /** Opens the socket as the page does (its Origin, the cookie), or with the headers given; resolves when open. */
  function open(headers?: Record<string, string>, path = SOCKET_PATH): Promise<WebSocket> {
    return (async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${web.port}${path}`, { headers: headers ?? { Origin: page(), Cookie: await cookie() } });
      return new Promise<WebSocket>((resolve, reject) => {
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        socket.once('error', reject);
      });
    })();
  }

  /** Sends one raw message and resolves with the next message the app sends back. */
  const exchange = (socket: WebSocket, message: string | Buffer): Promise<{ id: number | null; reply: { result?: unknown; error?: { message: string; kind: string } } }> =>
    new Promise((resolve) => {
      socket.once('message', (data) => resolve(JSON.parse(String(data))));
      socket.send(message);
    });

  const sockets: WebSocket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.terminate();
  });
  const opened = async (headers?: Record<string, string>) => {
    const socket = await open(headers);
    sockets.push(socket);
    return socket;
  };

  it('runs the same handler table over one socket, each answer carrying the id it answers', async () => {
    const socket = await opened();
    const created = await exchange(socket, JSON.stringify({ id: 7, name: 'campaigns:create', input: { name: 'Over the socket', rulesetId: 'enigma' } }));
    expect(created.id).toBe(7);
    expect((created.reply.result as { name: string }).name).toBe('Over the socket');
    const refused = await exchange(socket, JSON.stringify({ id: 8, name: 'campaigns:create', input: { name: 'x'.repeat(10_000), rulesetId: 'enigma' } }));
    expect(refused).toEqual({ id: 8, reply: { error: { message: 'A name is at most 80 characters.', kind: 'invalid' } } });
    expect((await exchange(socket, JSON.stringify({ id: 9, name: 'campaigns:drop', input: {} }))).reply.error?.message).toBe('Unknown request.');
    // The same answer as a POST of the same call.
    const overHttp = JSON.parse((await api('campaigns:list', {})).body);
    expect((await exchange(socket, JSON.stringify({ id: 10, name: 'campaigns:list' }))).reply).toEqual(overHttp);
  });

  it('answers a malformed message with a sentence and changes nothing', async () => {
    const socket = await opened();
    for (const message of ['{nope', 'null', '42', Buffer.from([1, 2, 3])]) {
      expect(await exchange(socket, message)).toEqual({ id: null, reply: { error: { message: 'The request is not valid JSON.', kind: 'invalid' } } });
    }
    expect((await exchange(socket, JSON.stringify({ id: 3, input: {} }))).reply.error?.message).toBe('The request names no action.');
    expect((await exchange(socket, JSON.stringify({ id: 4, name: 'n'.repeat(10_000) }))).reply.error?.message).toBe('The request names no action.');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ id: 5, name: 'campaigns:create', input: { name: 'y'.repeat(2 * 1024 * 1024), rulesetId: 'enigma' } }));
    expect(await closed).toBe(1009);
    expect(JSON.parse((await api('campaigns:list', {})).body).result).toEqual([]);
  });

  it('opens only for this app\'s page: its Host, its Origin and the token', async () => {
    const jar = await cookie();
    await expect(open({ Origin: page() })).rejects.toThrow('HTTP 401');
    await expect(open({ Origin: page(), Cookie: 'gmw_token_1=wrong' })).rejects.toThrow('HTTP 401');
    await expect(open({ Cookie: jar })).rejects.toThrow('HTTP 403');
    await expect(open({ Origin: 'http://evil.example', Cookie: jar })).rejects.toThrow('HTTP 403');
    await expect(open({ Origin: page(), Cookie: jar, Host: `evil.example:${web.port}` })).rejects.toThrow('HTTP 403');
    await expect(open({ Origin: page(), Cookie: jar }, '/api/elsewhere')).rejects.toThrow('HTTP 404');
    await expect(opened({ Origin: `http://localhost:${web.port}`, Authorization: `Bearer ${web.token}` })).resolves.toBeInstanceOf(WebSocket);
  });

  it('closes open sockets when web mode stops', async () => {
    const socket = await opened();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await web.close();
    await closed;
    web = await startWebServer({ service, staticDir: join(dir.path, 'renderer') });
  });
});
