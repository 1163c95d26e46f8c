// The Markdown export: a title, the facts, a heading per round with its log (rulings after each line) and a summary
// table; and nothing a person typed — however hostile or long — turns into markup, a heading, a list or a broken
// table row.
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../encounter/kernel.ts';
import type { CombatantSeed, GmEvent } from '../encounter/types.ts';
import { NAME_MAX } from '../encounter/schemas.ts';
import { defaultOptions } from '../rulesets/options.ts';
import { findRuleset } from '../rulesets/registry.ts';
import { defaultSheet } from '../rulesets/sheet.ts';
import { buildEncounterExport } from './encounter.ts';
import { encounterMarkdown, mdTable, mdText, plainText, summaryTableMd } from './markdown.ts';

/** An Enigma fight between two combatants with the given names, exported. */
function fightBetween(pc: string, npc: string, names: { encounter?: string; campaign?: string; outcome?: string } = {}) {
  const enigma = findRuleset('enigma')!;
  const seed = (id: string, name: string, side: string): CombatantSeed => ({ id, name, side, characterId: null, sheet: defaultSheet(enigma.sheet) as CombatantSeed['sheet'] });
  const input = { options: defaultOptions(enigma.options), carried: {} };
  const engine = EncounterEngine.create(enigma.encounter, input);
  const events: GmEvent[] = [
    { type: 'ADD_COMBATANTS', combatants: [seed('pc', pc, 'party'), seed('npc', npc, 'gm')] },
    { type: 'START' },
    { type: 'ATTACK', attackerId: 'pc', targetId: 'npc', mode: 'melee', sight: 'clear', damage: 'full', attackRoll: { faces: [8], source: 'manual' }, defenceRoll: { faces: [1], source: 'manual' } },
    { type: 'END_TURN' },
    { type: 'END_TURN' },
    { type: 'APPLY_DAMAGE', targetId: 'pc', amount: 2, source: 'a trap' },
    { type: 'END_COMBAT', outcome: names.outcome ?? 'Victory' },
  ];
  const stored = events.map((event, i) => ({ seq: i + 1, event, lines: engine.apply(event) }));
  const view = engine.view();
  const { export: file } = buildEncounterExport(
    { id: 'e', name: names.encounter ?? 'Toll bridge', campaignName: names.campaign ?? 'Vault', rulesetId: 'enigma', createdAt: 'then', phase: view.phase, round: view.round, input, events: stored },
    enigma.encounter,
    '2026-11-21T09:00:00.000Z',
  );
  return { file, view, markdown: encounterMarkdown(file, { rulesetName: 'Enigma', outcome: view.outcome ?? null }) };
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'a | b || c',
  '``` fenced ``` and `inline`',
  '# heading',
  '- list item',
  '1. ordered',
  '> quote',
  '[link](javascript:alert(1)) ![img](x) [[wiki]]',
  '*em* _em_ **strong** ~~gone~~ ==mark== %%hidden%% $x^2$',
  'two\nlines\r\n\tand tabs',
  '&lt;already escaped&gt; &amp;',
  '<!-- comment -->',
  'trailing backslash \\',
];

/** The table rows that follow each header row, split into cells on the pipes that are not escaped. */
function tableShapes(md: string): { header: number; rows: number[] }[] {
  const lines = md.split('\n');
  const cells = (line: string) => line.split(/(?<!\\)\|/).length;
  const tables: { header: number; rows: number[] }[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('| ') || lines[i - 1]?.startsWith('|')) return;
    const rows: number[] = [];
    for (let j = i + 1; lines[j]?.startsWith('|'); j += 1) rows.push(cells(lines[j]!));
    tables.push({ header: cells(line), rows });
  });
  return tables;
}

describe('Markdown text escaping', () => {
  it('turns newlines, tabs and control characters into single spaces', () => {
    expect(plainText('two\nlines\r\n\tand\u0000tabs  ')).toBe('two lines and tabs');
    expect(mdText('a\n\n# b')).toBe('a \\# b');
  });

  it('escapes HTML as entities and markup characters with backslashes', () => {
    expect(mdText('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mdText('"><img src=x onerror=alert(1)>')).toBe('"&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(mdText('a | b')).toBe('a \\| b');
    expect(mdText('`code`')).toBe('\\`code\\`');
    expect(mdText('*a* _b_ ~c~ [d](e) #tag $m$ x^2 \\')).toBe('\\*a\\* \\_b\\_ \\~c\\~ \\[d\\](e) \\#tag \\$m\\$ x\\^2 \\\\');
    expect(mdText('==mark== %%note%% = 8 50%')).toBe('\\=\\=mark\\=\\= \\%\\%note\\%\\% = 8 50%');
    expect(mdText('&amp;')).toBe('&amp;amp;');
  });

  it('escapes what would start a list, a quote or a heading', () => {
    expect(mdText('- item')).toBe('\\- item');
    expect(mdText('+ item')).toBe('\\+ item');
    expect(mdText('12. item')).toBe('12\\. item');
    expect(mdText('3) item')).toBe('3\\) item');
    expect(mdText('> quote')).toBe('&gt; quote');
    expect(mdText('# Title')).toBe('\\# Title');
    expect(mdText('    indented code')).toBe('indented code');
    expect(mdText('a-b 1.5')).toBe('a-b 1.5');
  });

  it('escapes exactly as the plain rules say, one replacement after another, for any mix of characters', () => {
    // The rules written the slow, obvious way: mdText and plainText take shortcuts and must land on the same text.
    const plainly = (value: string) => value.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
    const markdownly = (value: string) =>
      plainly(value)
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/[\\`*_[\]|~#$^]/g, '\\$&')
        .replace(/={2,}|%{2,}/g, (run) => run.replace(/./g, '\\$&'))
        .replace(/^([-+])/, '\\$1')
        .replace(/^(\d+)([.)])/, '$1\\$2');
    const pieces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u0085', '\u0007', '\u007f', '\ufeff', 'a', 'Z', '1', '42', '.', ')', '-', '+', '=', '%', '&', '<', '>', '"', "'", '\\', '`', '*', '_', '[', ']', '|', '~', '#', '$', '^', 'é', '→', '&amp;'];
    let state = 1;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 20000; i++) {
      const value = Array.from({ length: next() % 10 }, () => pieces[next() % pieces.length]).join('');
      expect(plainText(value), JSON.stringify(value)).toBe(plainly(value));
      expect(mdText(value), JSON.stringify(value)).toBe(markdownly(value));
    }
    for (const value of HOSTILE) expect(mdText(value)).toBe(markdownly(value));
  });

  it('keeps table rows whole whatever is in a cell', () => {
    const table = mdTable(['Name', 'N'], HOSTILE.map((h) => [mdText(h), 1]), new Set([1]));
    expect(table.split('\n')).toHaveLength(HOSTILE.length + 2);
    expect(tableShapes(table)).toEqual([{ header: 4, rows: Array(HOSTILE.length + 1).fill(4) }]);
    expect(table.split('\n')[1]).toBe('| --- | ---: |');
  });
});

describe('the encounter in Markdown', () => {
  it('has a title, the facts, a heading per round with its log and rulings, and a summary table per round', () => {
    const { markdown, file } = fightBetween('Berrik', 'Goblin 1');
    expect(markdown).toMatch(/^# Toll bridge\n\n- \*\*Campaign:\*\* Vault\n- \*\*Ruleset:\*\* Enigma\n- \*\*Rounds:\*\* 2\n- \*\*Outcome:\*\* Victory\n- \*\*Events:\*\* 7\n/);
    expect(markdown.match(/^## .*/gm)).toEqual(['## Totals', '## Before the fight', '## Round 1', '## Round 2']);
    expect(markdown).toContain('- Berrik attacks Goblin 1 (melee): Attack d8 \\[8\\] (typed in) → 8');
    const withRulings = file.log.find((l) => l.rulings?.length)!;
    expect(markdown).toContain(`${mdText(withRulings.text)} *(${withRulings.rulings!.join(', ')})*`);
    const round2 = markdown.slice(markdown.indexOf('## Round 2'));
    expect(round2).toContain('- Berrik takes 2 damage from a trap');
    expect(round2).toMatch(/\| Berrik \| Party \| 0 \| 2 \| 0 \| [^|]* \| {2}\|/);
    expect(tableShapes(markdown).map((t) => t.header)).toEqual([8, 9, 9]);
  });

  it('writes the summary in loads for Thrum', () => {
    const table = summaryTableMd({ round: 1, measure: 'loads', combatants: [{ id: 'a', name: 'Ash', side: 'Party', dealt: 0, taken: 3, healed: 1, statuses: ['Frayed (Stress 6 > 5)', 'Burning 2'], down: true }] });
    expect(table.split('\n')[0]).toBe('| Combatant | Side | Loads dealt | Loads taken | Loads shed | Statuses at the end of the round | Down |');
    expect(table.split('\n')[2]).toBe('| Ash | Party | 0 | 3 | 1 | Frayed (Stress 6 &gt; 5); Burning 2 | went down |');
  });

  for (const hostile of [...HOSTILE, 'x'.repeat(10_000), `${'<img src=x onerror=alert(1)>|`'.repeat(400)}`]) {
    it(`keeps a hostile name inert: ${JSON.stringify(hostile.slice(0, 40))}${hostile.length > 40 ? ` (${hostile.length} characters)` : ''}`, () => {
      // Combatant names and the outcome are parts of events, which the engine reads with the ruleset's schema (a name
      // of at most 80 characters, a text of at most 500): those are as long as an event may carry them.
      const named = hostile.slice(0, NAME_MAX - 2);
      const { markdown } = fightBetween(named, `${named} 1`, { encounter: hostile, campaign: hostile, outcome: hostile.slice(0, 500) });
      // No raw HTML, no unescaped code span, no heading, list or quote other than the export's own.
      expect(markdown).not.toMatch(/<[a-z!/?]/i);
      expect(markdown).not.toMatch(/(^|[^\\])`/m);
      for (const line of markdown.split('\n')) expect(line, line.slice(0, 80)).toMatch(/^(|# .*|## (Totals|Before the fight|Round \d+)|- .*|\| .* \||\*Nothing was logged in this round\.\*)$/);
      expect(markdown.match(/^# /gm)).toHaveLength(1);
      // Every list item starts with the export's own bold label, or with escaped or plain text: never a second marker.
      for (const item of markdown.split('\n').filter((l) => l.startsWith('- '))) expect(item).not.toMatch(/^- (?!\*\*[A-Z][a-z]+:\*\* )([-+*>]|\d+[.)]|#)/);
      for (const table of tableShapes(markdown)) expect(table.rows.every((n) => n === table.header)).toBe(true);
      expect(markdown).toContain(mdText(hostile));
    });
  }
});
