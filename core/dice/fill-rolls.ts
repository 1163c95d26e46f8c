// Filling an event's rolls: a roll the GM typed in keeps its faces; an empty one is rolled by the app. Shared by
// encounters and the campaign ledger, so every die ends up inside the stored event.
import type { GmEvent, RollRequest } from '../encounter/types.ts';
import { roll, type DiceEngine } from './dice.ts';

type Branch = Record<string | number, unknown>;

const missing = (value: unknown): boolean => {
  const faces = (value as { faces?: unknown[] } | null | undefined)?.faces;
  return !faces || faces.length === 0;
};

/**
 * The event with every empty roll rolled. The event given is left as it was: the objects and arrays on the way to
 * a filled roll are copied, the rest is shared, and an event whose rolls all came typed in comes back as it is.
 * `engine` rolls them (a fresh random one by default; a seeded one makes a generated fight the same every time).
 */
export function fillRolls(requests: readonly RollRequest[], event: GmEvent, engine?: DiceEngine): GmEvent {
  let filled: Branch = event;
  for (const request of requests) {
    if (!missing(valueAt(filled, request.path))) continue;
    filled = withValue(filled, request.path, { faces: roll(request.notation, engine).faces, source: 'app' });
  }
  return filled as GmEvent;
}

function valueAt(root: Branch, path: readonly (string | number)[]): unknown {
  let value: unknown = root;
  for (const key of path) value = (value as Branch | null | undefined)?.[key];
  return value;
}

/** A copy of `node` with `value` at `path`; only the objects and arrays along the path are new. */
function withValue(node: Branch, path: readonly (string | number)[], value: unknown): Branch {
  const [key, ...rest] = path;
  if (key === undefined) return value as Branch;
  const copy = (Array.isArray(node) ? [...node] : { ...node }) as Branch;
  copy[key] = rest.length === 0 ? value : withValue(copy[key] as Branch, rest, value);
  return copy;
}
