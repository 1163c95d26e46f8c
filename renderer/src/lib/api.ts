// The renderer's one way to talk to the app: the preload bridge in the desktop window, HTTP in web mode.
// Both carry the same envelopes; `send` turns `{error}` into a thrown GmError with the GM's sentence.
import { createClient, type Transport } from '../../../core/api/client.ts';
import type { Envelope } from '../../../core/api/contract.ts';
import type { ChangeNotice } from '../../../core/api/names.ts';
import type { GmwBridge } from '../../../electron/bridge.ts';

declare global {
  interface Window {
    gmw?: GmwBridge;
  }
}

const bridge = typeof window !== 'undefined' ? window.gmw : undefined;

const httpTransport: Transport = async (name, input) => {
  let response: Response;
  try {
    response = await fetch(`api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(input),
      credentials: 'same-origin',
    });
  } catch {
    return { error: { message: 'GM Workstation is not answering. Is it still running?', kind: 'internal' } };
  }
  if (response.status === 401) {
    return { error: { message: 'This page has lost its access token: open the address printed in the terminal again.', kind: 'invalid' } };
  }
  try {
    return (await response.json()) as Envelope<unknown>;
  } catch {
    return { error: { message: 'GM Workstation sent an answer this page cannot read.', kind: 'internal' } };
  }
};

/** Calls larger than this (imports carry whole files) go over HTTP, whose limits suit them. */
const SOCKET_MAX_CHARS = 256 * 1024;
/** After the socket would not open, calls use HTTP for this long before it is tried again. */
const SOCKET_RETRY_MS = 5_000;

/**
 * Web mode's fast path: one WebSocket to the app for every call, answered with the same envelopes as HTTP. A
 * browser's HTTP round trip on this machine costs a few milliseconds more than a message on an open socket, and
 * the runner's key presses wait on it. A call never waits for the socket: while it is opening (the page's first
 * calls, 30-80 ms at start), cannot open or has dropped, calls go over HTTP.
 */
export class SocketTransport {
  #socket: WebSocket | null = null;
  #opening: WebSocket | null = null;
  #failedAt = -Infinity;
  #next = 1;
  #waiting = new Map<number, (reply: Envelope<unknown>) => void>();

  readonly call: Transport = async (name, input) => {
    const id = this.#next++;
    const text = JSON.stringify({ id, name, input });
    const socket = text.length <= SOCKET_MAX_CHARS ? this.#openSocket() : null;
    if (!socket) return httpTransport(name, input);
    return new Promise<Envelope<unknown>>((resolve) => {
      this.#waiting.set(id, resolve);
      socket.send(text);
    });
  };

  /** The socket when it is open; otherwise null, and the socket opening (unless it would not lately) for the calls after. */
  #openSocket(): WebSocket | null {
    if (this.#socket?.readyState === WebSocket.OPEN) return this.#socket;
    if (this.#opening || typeof WebSocket === 'undefined' || performance.now() - this.#failedAt < SOCKET_RETRY_MS) return null;
    const url = new URL('api/socket', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.#opening = socket;
    socket.onopen = () => {
      this.#opening = null;
      this.#socket = socket;
    };
    socket.onmessage = (message) => this.#answered(message.data);
    socket.onclose = () => {
      if (this.#opening === socket) {
        this.#opening = null;
        this.#failedAt = performance.now();
      }
      this.#closed(socket);
    };
    return null;
  }

  #answered(data: unknown): void {
    let message: { id?: unknown; reply?: Envelope<unknown> };
    try {
      message = JSON.parse(String(data)) as typeof message;
    } catch {
      return;
    }
    const resolve = typeof message.id === 'number' ? this.#waiting.get(message.id) : undefined;
    if (!resolve || !message.reply) return;
    this.#waiting.delete(message.id as number);
    resolve(message.reply);
  }

  /** Calls still waiting when the socket closes cannot know whether the app did them: they say so. */
  #closed(socket: WebSocket): void {
    if (this.#socket !== socket) return;
    this.#socket = null;
    for (const resolve of this.#waiting.values()) resolve({ error: { message: 'GM Workstation stopped answering before it confirmed this action: check the screen before doing it again.', kind: 'internal' } });
    this.#waiting.clear();
  }
}

export const transportName: 'electron' | 'web' = bridge ? 'electron' : 'web';
export const send = createClient(bridge ? (name, input) => bridge.invoke(name, input) : new SocketTransport().call);

/** Calls `listener` for every change main reports; returns the unsubscribe function. */
export function onChanged(listener: (notice: ChangeNotice) => void): () => void {
  if (bridge) return bridge.onChanged(listener);
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource('api/changes');
  source.onmessage = (message) => listener(JSON.parse(message.data) as ChangeNotice);
  return () => source.close();
}
