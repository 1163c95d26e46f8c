// Web mode's calls: over the page's WebSocket once it is open, over HTTP while it opens, so that the page's first
// calls do not wait for it (docs/decisions.md "transport").
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SocketTransport } from './api.ts';

/** A browser's WebSocket that opens, answers and closes when the test says. */
class TestSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly made: TestSocket[] = [];
  readyState = TestSocket.CONNECTING;
  readonly sent: { id: number; name: string; input: unknown }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: URL) {
    TestSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = TestSocket.OPEN;
    this.onopen?.();
  }
  answer(reply: unknown) {
    const { id } = this.sent.at(-1)!;
    this.onmessage?.({ data: JSON.stringify({ id, reply }) });
  }
}

const overHttp: string[] = [];

beforeEach(() => {
  TestSocket.made.length = 0;
  overHttp.length = 0;
  vi.stubGlobal('WebSocket', TestSocket);
  vi.stubGlobal('location', new URL('http://127.0.0.1:4000/'));
  vi.stubGlobal('fetch', async (url: string) => {
    overHttp.push(url);
    return new Response(JSON.stringify({ result: 'over HTTP' }));
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("web mode's calls", () => {
  it('go over HTTP while the socket is opening, and start it opening', async () => {
    const transport = new SocketTransport();
    // The page's first calls, made in one turn: none waits for the socket, one socket is opened.
    const replies = await Promise.all([transport.call('recovery:status', {}), transport.call('campaigns:list', { includeArchived: true })]);
    expect(replies).toEqual([{ result: 'over HTTP' }, { result: 'over HTTP' }]);
    expect(overHttp).toEqual(['api/recovery:status', 'api/campaigns:list']);
    expect(TestSocket.made.map((socket) => socket.url.href)).toEqual(['ws://127.0.0.1:4000/api/socket']);
    expect(TestSocket.made[0]!.sent).toEqual([]);
  });

  it('go over the socket once it is open', async () => {
    const transport = new SocketTransport();
    await transport.call('recovery:status', {});
    const socket = TestSocket.made[0]!;
    socket.open();
    const reply = transport.call('app:info', {});
    await vi.waitFor(() => expect(socket.sent).toHaveLength(1));
    socket.answer({ result: 'over the socket' });
    expect(await reply).toEqual({ result: 'over the socket' });
    expect(socket.sent[0]).toMatchObject({ name: 'app:info', input: {} });
    expect(overHttp).toEqual(['api/recovery:status']);
  });

  it('go over HTTP, without opening another socket for a while, when the socket would not open', async () => {
    const transport = new SocketTransport();
    await transport.call('recovery:status', {});
    TestSocket.made[0]!.onclose?.();
    expect(await transport.call('campaigns:list', {})).toEqual({ result: 'over HTTP' });
    expect(TestSocket.made).toHaveLength(1);
  });
});
