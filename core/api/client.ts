// The typed client every UI uses: `send(name, input)` over whichever transport carries envelopes, rebuilding a
// real Error (with the GM sentence as its message) from `{error}`.
import type { Envelope, HandlerInput, HandlerName, HandlerResult } from './contract.ts';
import { GmError } from './replies.ts';

export type Transport = (name: HandlerName, input: unknown) => Promise<Envelope<unknown>>;

export function createClient(transport: Transport) {
  return async function send<N extends HandlerName>(name: N, input: HandlerInput<N>): Promise<HandlerResult<N>> {
    const envelope = await transport(name, input);
    if ('error' in envelope) throw new GmError(envelope.error.message, envelope.error.kind);
    return envelope.result as HandlerResult<N>;
  };
}

export type Send = ReturnType<typeof createClient>;
