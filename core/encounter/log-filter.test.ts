// The full log screen's filters: `matches` decides which lines a filter shows; `storedLogTest` may skip an event's
// stored JSON only when `matches` would show none of its lines.
import { describe, expect, it } from 'vitest';
import { LOG_KIND_FILTERS, filterKey, matches, storedLogTest, type LogFilter } from './log-filter.ts';
import type { LogKind, LogLine } from './types.ts';

// Names and words as a GM may type them: accents, a Greek final sigma, a dotted capital I, quotes, a slash, a
// backslash, a tab, a sigma after a line break (σ in the text, but ς in the JSON, where `\n` ends in a letter).
const WORDS = ['Berrik', 'Élodie', 'élodie', 'ÆTHELRED', 'ΟΔΥΣΣΕΥΣ', 'σοφία', 'İnci', 'Zoë "the Quick"', 'and/or', 'back\\slash', 'tab\there', 'new\nΣ', 'GM override', 'overrides', 'Injury', 'WOUNDED', '😀 grin'];
const KINDS: LogKind[] = ['attack', 'damage', 'decision', 'turn', 'condition'];

const LINES: LogLine[] = WORDS.flatMap((word, i) => KINDS.map((kind, k) => ({
  round: i + k,
  kind,
  text: `${WORDS[(i + k) % WORDS.length]} meets ${word}.`,
  ...(k % 2 === 0 ? { actorId: `actor ${word}` } : {}),
  ...(k === 3 ? { rulings: [`R-E${i} ${word}`] } : {}),
})));

const FILTERS: LogFilter[] = LOG_KIND_FILTERS.flatMap((kind) => [null, ...WORDS.map((word) => ({ id: `actor ${word}`, name: word }))].flatMap((combatant) =>
  ['', ...WORDS, ...WORDS.map((word) => ` ${word.toUpperCase()} `), 'σ', 'r-e3', 'zzz'].map((query) => ({ kind, combatant, query }))));

/** The JSON an event's lines may be stored as: as the app writes it, indented, or with every non-ASCII character escaped. */
const storedForms = (lines: LogLine[]) => {
  const json = JSON.stringify(lines);
  return [json, JSON.stringify(lines, null, 2), json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)];
};

describe('storedLogTest', () => {
  it('lets through every event with a line the filter matches, however its JSON is written', () => {
    let skipped = 0;
    const missed: string[] = [];
    for (const filter of FILTERS) {
      const test = storedLogTest(filter);
      for (const line of LINES) {
        const shown = matches(line, filter);
        for (const json of storedForms([line])) {
          if (test(json)) continue;
          if (shown) missed.push(`${JSON.stringify(filter)} on ${json}`);
          else skipped += 1;
        }
      }
    }
    expect(missed).toEqual([]);
    // And it does skip: most pairs of a line and a filter that does not show it.
    expect(skipped).toBeGreaterThan(FILTERS.length * LINES.length);
  });

  it('keys filters by what matches reads: the query trimmed and lower-cased, the combatant by id and name', () => {
    const key = (filter: Partial<LogFilter>) => filterKey({ kind: 'all', combatant: null, query: '', ...filter });
    expect(key({ query: '  Élodie ' })).toBe(key({ query: 'élodie' }));
    expect(key({ query: 'elodie' })).not.toBe(key({ query: 'élodie' }));
    expect(key({ combatant: { id: 'a', name: 'Berrik' } })).not.toBe(key({ combatant: { id: 'b', name: 'Berrik' } }));
    expect(key({ combatant: { id: 'a', name: 'Berrik' } })).not.toBe(key({ combatant: { id: 'a', name: 'Goblin' } }));
    expect(key({ kind: 'damage' })).not.toBe(key({ kind: 'attacks' }));
  });
});
