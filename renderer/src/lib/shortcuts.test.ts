// The README's shortcut table covers every ruleset (issue 28: it covered Enigma only) and says what the key
// handlers do: each ruleset's keys, read from the tables the handlers use, are in its column, and nothing else is.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULESETS } from '../../../core/rulesets/registry.ts';
import { ENIGMA_KEY_LINES } from '../rulesets/enigma/action-keys.ts';
import { formKeyLines, RUNNER_KEYS } from './shortcuts.ts';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

/** The README's per-ruleset table: for each ruleset column, key → action. */
function readmeTable(): Map<string, Map<string, string>> {
  const lines = readme.split('\n');
  const head = lines.findIndex((line) => line.startsWith('| key | Enigma |'));
  expect(head).toBeGreaterThan(-1);
  const cells = (line: string) => line.split('|').slice(1, -1).map((cell) => cell.trim());
  const names = cells(lines[head]!).slice(1);
  const table = new Map(names.map((name) => [name, new Map<string, string>()]));
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const [key, ...actions] = cells(line);
    actions.forEach((action, i) => {
      if (action) table.get(names[i]!)!.set(key!.replaceAll('`', '').toLowerCase(), action);
    });
  }
  return table;
}

describe('the README shortcut table', () => {
  it('has a column per ruleset, each listing exactly the keys its runner handles', () => {
    const table = readmeTable();
    expect([...table.keys()]).toEqual(RULESETS.map((r) => r.name));
    for (const ruleset of RULESETS) {
      const lines = ruleset.id === 'enigma' ? ENIGMA_KEY_LINES : formKeyLines(ruleset.encounter?.actionForms ?? []);
      expect(Object.fromEntries(table.get(ruleset.name)!), ruleset.name).toEqual(Object.fromEntries(lines.map((line) => [line.key, line.does])));
    }
  });

  it('lists every key the runner has whatever the ruleset, with the others every ruleset shares', () => {
    const lines = readme.split('\n');
    const head = lines.findIndex((line) => line.startsWith('| key | every ruleset |'));
    expect(head).toBeGreaterThan(-1);
    const end = lines.findIndex((line, i) => i > head && !line.startsWith('|'));
    const keys = lines.slice(head + 2, end).map((line) => line.split('|')[1]!.trim().replaceAll('`', ''));
    for (const shortcut of Object.values(RUNNER_KEYS)) expect(keys, shortcut.does).toContain(shortcut.keys);
  });
});
