// The full log as rows for a (virtual) list: round headings, turn headings and lines, after the GM's filters
// (combatant, kind, search). Pure, so it is tested without a browser.
import type { LogEntry } from '../../../core/api/contract.ts';
import { INJURY, matches, type LogFilter, type LogKindFilter } from '../../../core/encounter/log-filter.ts';

export { matches, type LogFilter, type LogKindFilter };

export const KIND_FILTERS: readonly { value: LogKindFilter; label: string }[] = [
  { value: 'all', label: 'Everything' },
  { value: 'attacks', label: 'Attacks' },
  { value: 'damage', label: 'Damage' },
  { value: 'decisions', label: 'Decisions' },
  { value: 'injuries', label: 'Injuries' },
  { value: 'overrides', label: 'GM overrides' },
];

export type LogRow =
  | { type: 'round'; key: string; round: number; count: number }
  | { type: 'turn'; key: string; entry: LogEntry }
  | { type: 'line'; key: string; entry: LogEntry };

/**
 * How loud a line is (issue 28, point 7): what changed the fight — attacks, damage, decisions, injuries, someone
 * leaving, the end — is prominent; turn bookkeeping (whose turn, who was placed, setup) is quiet.
 */
export type LineWeight = 'prominent' | 'plain' | 'quiet';

export function lineWeight(entry: Pick<LogEntry, 'kind' | 'text'>): LineWeight {
  if (entry.kind === 'attack' || entry.kind === 'damage' || entry.kind === 'decision' || entry.kind === 'removal' || entry.kind === 'end') return 'prominent';
  if (INJURY.test(entry.text)) return 'prominent';
  if (entry.kind === 'turn' || entry.kind === 'order' || entry.kind === 'setup') return 'quiet';
  return 'plain';
}

/** A line's text cut around each match of the search, for <mark>: case-insensitive, in order, never overlapping. */
export function highlighted(text: string, query: string): { text: string; hit: boolean }[] {
  const needle = query.trim();
  if (!needle) return [{ text, hit: false }];
  const parts: { text: string; hit: boolean }[] = [];
  let from = 0;
  for (const match of text.matchAll(new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'))) {
    if (match.index > from) parts.push({ text: text.slice(from, match.index), hit: false });
    parts.push({ text: match[0], hit: true });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), hit: false });
  return parts;
}

/** Rows in log order: a heading before each round's first shown line (with how many lines it shows), then lines. */
export function logRows(entries: readonly LogEntry[], filter: LogFilter): LogRow[] {
  const rows: LogRow[] = [];
  let heading: Extract<LogRow, { type: 'round' }> | null = null;
  entries.forEach((entry, i) => {
    if (!matches(entry, filter)) return;
    if (!heading || heading.round !== entry.round) {
      heading = { type: 'round', key: `round-${entry.round}-${i}`, round: entry.round, count: 0 };
      rows.push(heading);
    }
    heading.count += 1;
    rows.push({ type: entry.kind === 'turn' ? 'turn' : 'line', key: `${entry.seq}-${i}`, entry });
  });
  return rows;
}
