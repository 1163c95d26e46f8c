// The full log's rows: round headings, turn headings, and each filter on its own and together.
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../core/api/contract.ts';
import { highlighted, lineWeight, logRows, type LogFilter } from './log-rows.ts';
import { poolState } from './pool-state.ts';

const line = (seq: number, round: number, kind: LogEntry['kind'], text: string, actorId: string | null = null, rulings?: string[]): LogEntry =>
  ({ seq, round, kind, text, actorId, ...(rulings ? { rulings } : {}) });
const log: LogEntry[] = [
  line(1, 0, 'setup', 'Berrik and Goblin 1 join.'),
  line(2, 1, 'round', 'Round 1 begins.'),
  line(3, 1, 'turn', "Berrik's turn.", 'b'),
  line(4, 1, 'attack', 'Berrik attacks Goblin 1: 7 against 4, hit.', 'b', ['R-E12']),
  line(5, 1, 'damage', 'Goblin 1 takes 3 damage.', 'b'),
  line(6, 2, 'turn', "Goblin 1's turn.", 'g'),
  line(7, 2, 'attack', 'Goblin 1 attacks Berrik: miss.', 'g'),
  line(8, 2, 'decision', 'Mortal Peril: Berrik chooses Survive. Injury: Sprained Ankle.', 'b'),
  line(9, 2, 'decision', 'GM override: Berrik LP 2 → 4.', null),
];
const all: LogFilter = { kind: 'all', combatant: null, query: '' };
const texts = (rows: ReturnType<typeof logRows>) => rows.map((r) => (r.type === 'round' ? `# ${r.round} (${r.count})` : r.type === 'turn' ? `> ${r.entry.text}` : r.entry.text));

describe('log rows', () => {
  it('puts a heading before each round and marks turns', () => {
    expect(texts(logRows(log, all))).toEqual([
      '# 0 (1)', 'Berrik and Goblin 1 join.',
      '# 1 (4)', 'Round 1 begins.', "> Berrik's turn.", 'Berrik attacks Goblin 1: 7 against 4, hit.', 'Goblin 1 takes 3 damage.',
      '# 2 (4)', "> Goblin 1's turn.", 'Goblin 1 attacks Berrik: miss.', 'Mortal Peril: Berrik chooses Survive. Injury: Sprained Ankle.', 'GM override: Berrik LP 2 → 4.',
    ]);
  });

  it('filters by kind: attacks, damage, decisions, injuries, overrides', () => {
    expect(texts(logRows(log, { ...all, kind: 'attacks' }))).toEqual(['# 1 (1)', 'Berrik attacks Goblin 1: 7 against 4, hit.', '# 2 (1)', 'Goblin 1 attacks Berrik: miss.']);
    expect(texts(logRows(log, { ...all, kind: 'damage' }))).toEqual(['# 1 (1)', 'Goblin 1 takes 3 damage.']);
    expect(texts(logRows(log, { ...all, kind: 'decisions' }))).toHaveLength(3);
    expect(texts(logRows(log, { ...all, kind: 'injuries' }))).toEqual(['# 2 (1)', 'Mortal Peril: Berrik chooses Survive. Injury: Sprained Ankle.']);
    expect(texts(logRows(log, { ...all, kind: 'overrides' }))).toEqual(['# 2 (1)', 'GM override: Berrik LP 2 → 4.']);
  });

  it('filters by combatant (acting or named) and searches text and rulings, case-insensitively', () => {
    const goblin = texts(logRows(log, { ...all, combatant: { id: 'g', name: 'Goblin 1' } }));
    expect(goblin).toEqual(['# 0 (1)', 'Berrik and Goblin 1 join.', '# 1 (2)', 'Berrik attacks Goblin 1: 7 against 4, hit.', 'Goblin 1 takes 3 damage.', '# 2 (2)', "> Goblin 1's turn.", 'Goblin 1 attacks Berrik: miss.']);
    expect(texts(logRows(log, { ...all, query: 'r-e12' }))).toEqual(['# 1 (1)', 'Berrik attacks Goblin 1: 7 against 4, hit.']);
    expect(texts(logRows(log, { kind: 'attacks', combatant: { id: 'g', name: 'Goblin 1' }, query: 'MISS' }))).toEqual(['# 2 (1)', 'Goblin 1 attacks Berrik: miss.']);
    expect(logRows(log, { ...all, query: 'dragon' })).toEqual([]);
  });
});

describe('how loud a line is, and what search marks (issue 28, point 7)', () => {
  it('attacks, damage, decisions, injuries and departures lead; turns, order and setup are quiet', () => {
    expect(lineWeight({ kind: 'attack', text: 'Mira attacks' })).toBe('prominent');
    expect(lineWeight({ kind: 'damage', text: 'Thug takes 2' })).toBe('prominent');
    expect(lineWeight({ kind: 'decision', text: 'Mortal Peril' })).toBe('prominent');
    expect(lineWeight({ kind: 'removal', text: 'Thug left' })).toBe('prominent');
    expect(lineWeight({ kind: 'turn', text: "Mira's turn (slot 1): 2 actions." })).toBe('quiet');
    expect(lineWeight({ kind: 'turn', text: 'Ana gains a wound' })).toBe('prominent');
    expect(lineWeight({ kind: 'setup', text: 'Added Mira' })).toBe('quiet');
    expect(lineWeight({ kind: 'round', text: 'Round 2 begins.' })).toBe('plain');
  });

  it('marks every match whatever its case, and takes the search as text, not a pattern', () => {
    expect(highlighted('Goblin 1 hits goblin 2', 'GOBLIN')).toEqual([
      { text: 'Goblin', hit: true }, { text: ' 1 hits ', hit: false }, { text: 'goblin', hit: true }, { text: ' 2', hit: false },
    ]);
    expect(highlighted('costs (2) actions', '(2)')).toEqual([{ text: 'costs ', hit: false }, { text: '(2)', hit: true }, { text: ' actions', hit: false }]);
    expect(highlighted('nothing here', '  ')).toEqual([{ text: 'nothing here', hit: false }]);
  });
});

describe('a pool at a glance (issue 28, point 2)', () => {
  it('bloodied at half or less, down at nothing; a rising load is over past its tolerance', () => {
    expect(poolState({ label: 'LP', current: 6, max: 10 })).toBe('fine');
    expect(poolState({ label: 'LP', current: 5, max: 10 })).toBe('bloodied');
    expect(poolState({ label: 'LP', current: 0, max: 10 })).toBe('down');
    expect(poolState({ label: 'Fatigue', current: 5, max: 5, rising: true })).toBe('fine');
    expect(poolState({ label: 'Fatigue', current: 6, max: 5, rising: true })).toBe('over');
  });
});
