// Web mode's guards: loopback only, the per-launch token on every request, Host and Origin checks.
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, type TempDir } from '../db/testing/temp-db.ts';
import { openApp, type AppService } from './app.ts';
import { CONTENT_SECURITY_POLICY, startWebServer, type WebServer } from './web.ts';

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
});
