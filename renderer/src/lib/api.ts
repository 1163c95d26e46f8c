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

export const transportName: 'electron' | 'web' = bridge ? 'electron' : 'web';
export const send = createClient(bridge ? (name, input) => bridge.invoke(name, input) : httpTransport);

/** Calls `listener` for every change main reports; returns the unsubscribe function. */
export function onChanged(listener: (notice: ChangeNotice) => void): () => void {
  if (bridge) return bridge.onChanged(listener);
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource('api/changes');
  source.onmessage = (message) => listener(JSON.parse(message.data) as ChangeNotice);
  return () => source.close();
}
