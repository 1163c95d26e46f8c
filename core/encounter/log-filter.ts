// The full log screen's filters (combatant, kind of line, search), shared by the screen and the server that reads
// the log a page at a time for it: a line is shown when it matches all three.
import type { LogLine } from './types.ts';

export const LOG_KIND_FILTERS = ['all', 'attacks', 'damage', 'decisions', 'injuries', 'overrides'] as const;
export type LogKindFilter = (typeof LOG_KIND_FILTERS)[number];

export interface LogFilter {
  kind: LogKindFilter;
  /** A combatant: lines it acts in or that name it. */
  combatant: { id: string; name: string } | null;
  query: string;
}

export const INJURY = /\b(injur|wound)/i;
const OVERRIDE = /\b(GM override|override)/i;

function kindMatches(entry: LogLine, kind: LogKindFilter): boolean {
  switch (kind) {
    case 'all': return true;
    case 'attacks': return entry.kind === 'attack';
    case 'damage': return entry.kind === 'damage';
    case 'decisions': return entry.kind === 'decision';
    case 'injuries': return INJURY.test(entry.text);
    case 'overrides': return OVERRIDE.test(entry.text);
  }
}

/** Whether the filter shows every line (the log is then read by line number, a page at a time). */
export const showsEveryLine = (filter: LogFilter): boolean => filter.kind === 'all' && !filter.combatant && !filter.query.trim();

export function matches(entry: LogLine, filter: LogFilter): boolean {
  if (!kindMatches(entry, filter.kind)) return false;
  if (filter.combatant && entry.actorId !== filter.combatant.id && !entry.text.includes(filter.combatant.name)) return false;
  const query = filter.query.trim().toLowerCase();
  if (query && !entry.text.toLowerCase().includes(query) && !(entry.rulings ?? []).some((r) => r.toLowerCase().includes(query))) return false;
  return true;
}
