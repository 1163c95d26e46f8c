// Filling an event's rolls: a roll the GM typed in keeps its faces; an empty one is rolled by the app. Shared by
// encounters and the campaign ledger, so every die ends up inside the stored event.
import type { GmEvent, RollRequest } from '../encounter/types.ts';
import { roll } from './dice.ts';

export function fillRolls(requests: readonly RollRequest[], event: GmEvent): GmEvent {
  if (requests.length === 0) return event;
  const filled = structuredClone(event) as Record<string | number, unknown>;
  for (const request of requests) {
    let parent: Record<string | number, unknown> = filled;
    for (const key of request.path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const key = request.path.at(-1)!;
    const current = parent[key] as { faces?: number[] } | null | undefined;
    if (!current || !current.faces || current.faces.length === 0) parent[key] = { faces: roll(request.notation).faces, source: 'app' };
  }
  return filled as GmEvent;
}
