// Structural sharing for replies: the parts of a new reply equal to what the screen already holds are replaced
// by the objects it holds, so Svelte's keyed lists and derived values see "unchanged" and draw nothing for them.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (value: unknown) => (isObject(value) && typeof value['id'] === 'string' ? value['id'] : undefined);

/**
 * `next`, with every part deep-equal to the matching part of `previous` replaced by that part of `previous`
 * (the whole of `previous` when nothing differs). An array item that `previous` holds itself is kept as it is;
 * other items that carry a string `id` are matched by id, so a reordered list keeps its items; the rest by position.
 * Works on JSON-shaped values.
 */
export function reuseUnchanged<T>(previous: T, next: T): T {
  return share(previous as Json, next as Json) as T;
}

function share(previous: Json | undefined, next: Json): Json {
  if (previous === next || previous === undefined) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(previous)) return next;
    // Made at the first item not found where it was: the runner's rows come back in their places, and only the log,
    // whose window moves on, needs them.
    let held: Set<Json> | undefined;
    let byId: Map<string, Json> | undefined;
    let same = previous.length === next.length;
    const items = next.map((item, i) => {
      if (item === previous[i]) return item;
      // An item the screen already holds (a log line kept from the last reply) stays as it is, wherever it moved.
      // Compared by position with the item that was there before (the log's window moves on by an event's lines on
      // every write), it came back as a copy: every line of the runner's log was drawn again on every key.
      held ??= new Set<Json>(previous);
      if (held.has(item)) {
        same = false;
        return item;
      }
      const id = idOf(item);
      if (id !== undefined && byId === undefined) {
        byId = new Map<string, Json>();
        for (const old of previous) {
          const oldId = idOf(old);
          if (oldId !== undefined) byId.set(oldId, old);
        }
      }
      const shared = share(id !== undefined ? byId!.get(id) : previous[i], item);
      if (shared !== previous[i]) same = false;
      return shared;
    });
    return same ? previous : items;
  }
  if (isObject(next)) {
    if (!isObject(previous)) return next;
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(previous).length;
    const out: Record<string, Json> = {};
    for (const key of keys) {
      const shared = share(previous[key] as Json | undefined, next[key] as Json);
      if (shared !== previous[key]) same = false;
      out[key] = shared;
    }
    return same ? (previous as Json) : out;
  }
  return next;
}
