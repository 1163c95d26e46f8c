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

/**
 * The filter as `matches` reads it (the query trimmed and lower-cased): two filters with the same key show the same
 * lines, so what one matched can be kept for the other (server/encounter-store.ts, logMatches).
 */
export const filterKey = (filter: LogFilter): string =>
  JSON.stringify([filter.kind, filter.combatant?.id ?? null, filter.combatant?.name ?? null, filter.query.trim().toLowerCase()]);

export function matches(entry: LogLine, filter: LogFilter): boolean {
  if (!kindMatches(entry, filter.kind)) return false;
  if (filter.combatant && entry.actorId !== filter.combatant.id && !entry.text.includes(filter.combatant.name)) return false;
  const query = filter.query.trim().toLowerCase();
  if (query && !entry.text.toLowerCase().includes(query) && !(entry.rulings ?? []).some((r) => r.toLowerCase().includes(query))) return false;
  return true;
}

/** Characters JSON may write escaped (`\"`, `\\`, `\/`, `\n`...): a piece of text holding one is not sought as it is. */
const ESCAPABLE = /["\\/\u0000-\u001f]/;
/** Σ lower-cases to σ or ς after the letters around it: in the JSON, an escape's letter (`\n`) may stand beside it. */
const SIGMA = /[σς]/;
const KIND_VALUES: Partial<Record<LogKindFilter, string>> = { attacks: '"attack"', damage: '"damage"', decisions: '"decision"' };
const KIND_WORDS: Partial<Record<LogKindFilter, RegExp>> = { injuries: /injur|wound/i, overrides: /override/i };

/**
 * A test of an event's stored log (its lines as JSON) that is false only when no line of it can match `filter`, so
 * the event need not be parsed; `matches` still decides every line of an event it lets through. What a matching line
 * holds (its kind's value, the combatant's id or name, the query in its lower-cased text or rulings) is in the JSON
 * as it is, or lower-cased with it, unless JSON escaped a character of it: a piece holding such a character (or a
 * sigma) is not sought, and a log written with \u escapes is always parsed.
 */
export function storedLogTest(filter: LogFilter): (json: string) => boolean {
  const kindValue = KIND_VALUES[filter.kind];
  const kindWord = KIND_WORDS[filter.kind];
  const combatant = filter.combatant && !ESCAPABLE.test(filter.combatant.id) && !ESCAPABLE.test(filter.combatant.name) ? filter.combatant : null;
  const query = filter.query.trim().toLowerCase();
  const sought = query && !ESCAPABLE.test(query) && !SIGMA.test(query) ? query : '';
  return (json) => {
    if (json.includes('\\u')) return true;
    if (kindValue && !json.includes(kindValue)) return false;
    if (kindWord && !kindWord.test(json)) return false;
    if (combatant && !json.includes(combatant.id) && !json.includes(combatant.name)) return false;
    return !sought || json.toLowerCase().includes(sought);
  };
}
