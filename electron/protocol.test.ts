import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler, resolveAppPath } from './protocol.ts';
import { CONTENT_SECURITY_POLICY } from './security.ts';

const TRAVERSALS = [
  'gmw://app/../../etc/passwd',
  'gmw://app/assets/../../../etc/passwd',
  'gmw://app/%2e%2e/%2e%2e/etc/passwd',
  'gmw://app/%2E%2E/%2E%2E/etc/passwd',
  'gmw://app/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'gmw://app/assets/..%5c..%5c..%5cetc%5cpasswd',
  'gmw://app/..\\..\\etc\\passwd',
  'gmw://app/index.html%00.png',
  // Refused even where it would land back inside the folder: a `..` never has a reason to be there.
  'gmw://app/assets/../index.html',
  'gmw://app/assets/%2e%2e/index.html',
];

describe('resolveAppPath', () => {
  const root = path.resolve('/srv/gmw/dist/renderer');

  it('maps gmw://app/ to index.html', () => {
    expect(resolveAppPath('gmw://app/', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath('gmw://app/index.html', root)).toBe(path.join(root, 'index.html'));
    expect(resolveAppPath('gmw://app/?campaign=1#top', root)).toBe(path.join(root, 'index.html'));
  });

  it('maps asset paths inside the renderer folder, decoding escapes', () => {
    expect(resolveAppPath('gmw://app/assets/index-abc.js', root)).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveAppPath('gmw://app/assets/My%20Font.woff2', root)).toBe(path.join(root, 'assets', 'My Font.woff2'));
  });

  it.each(TRAVERSALS)('refuses traversal: %s', (url) => {
    expect(resolveAppPath(url, root)).toBeNull();
  });

  it.each(['gmw://other/index.html', 'gmw://app.evil/index.html', 'https://app/index.html', 'file:///etc/passwd', 'gmw:app/index.html'])(
    'refuses URLs that are not on gmw://app: %s',
    (url) => {
      expect(resolveAppPath(url, root)).toBeNull();
    },
  );

  it('refuses malformed escapes', () => {
    expect(resolveAppPath('gmw://app/%E0%A4%A', root)).toBeNull();
  });
});

describe('the gmw scheme privileges', () => {
  it('is standard, secure and fetchable, and keeps the compiled code of its scripts between starts', () => {
    expect(APP_SCHEME_PRIVILEGES.scheme).toBe('gmw');
    expect(APP_SCHEME_PRIVILEGES.privileges).toMatchObject({ standard: true, secure: true, supportFetchAPI: true, codeCache: true });
    expect(APP_SCHEME_PRIVILEGES.privileges).not.toHaveProperty('bypassCSP');
  });
});

describe('createAppProtocolHandler', () => {
  let dir: string;
  let root: string;
  let handle: (request: Request) => Promise<Response>;
  const get = (url: string, method = 'GET') => handle({ url, method } as Request);

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gmw-protocol-'));
    root = path.join(dir, 'renderer');
    mkdirSync(path.join(root, 'assets'), { recursive: true });
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>GM Workstation</title>');
    writeFileSync(path.join(root, 'assets', 'index.js'), 'console.log("hi")');
    writeFileSync(path.join(dir, 'secret.txt'), 'TOP SECRET');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'escape.txt'));
    handle = createAppProtocolHandler(root);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html for gmw://app/ with the CSP', async () => {
    const response = await get('gmw://app/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>GM Workstation</title>');
  });

  it('serves scripts as JavaScript with the CSP', async () => {
    const response = await get('gmw://app/assets/index.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('answers 404, with the CSP, for a missing file or a folder', async () => {
    for (const url of ['gmw://app/nope.js', 'gmw://app/assets']) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it.each([...TRAVERSALS, 'gmw://app/%2e%2e/secret.txt', 'gmw://app/..%2fsecret.txt'])('never serves a file outside the folder: %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('TOP SECRET');
  });

  it('refuses a symbolic link that points outside the folder', async () => {
    const response = await get('gmw://app/assets/escape.txt');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('TOP SECRET');
  });

  it('accepts only GET and HEAD', async () => {
    expect((await get('gmw://app/index.html', 'POST')).status).toBe(405);
    const head = await get('gmw://app/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
