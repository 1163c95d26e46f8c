// An encounter as Markdown that reads well on GitHub and in Obsidian: a title, the facts, one heading per round with
// its log and a summary table. Everything a person typed (names, notes, log text that quotes them) goes through
// `mdText`, so it stays text: no heading, list, link, table cell break, emphasis, code, math or HTML can come of it.
import { logByRound, outcomeText, roundTitle } from './encounter.ts';
import { measureWords, totalsOf } from './summary.ts';
import type { EncounterExport, ExportLogLine, RoundSummary } from './types.ts';

/** Anything `plainText` changes: whitespace other than one space between words, or a control character. */
const NOT_PLAIN = /[^\S ]|[\u0000-\u001f\u007f-\u009f]|^ | $| {2}/;

/** Whitespace runs (newlines included) and control characters become one space; the ends are trimmed. */
export function plainText(value: string): string {
  // Most text (every log line, every name) is plain already: one test instead of rewriting each space.
  if (!NOT_PLAIN.test(value)) return value;
  return value.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** The characters that could open markup, each with what it becomes: an entity, or itself after a backslash. */
const MD_SPECIAL = /[&<>\\`*_[\]|~#$^]/g;
const MD_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const mdEscape = (c: string): string => MD_ENTITIES[c] ?? `\\${c}`;

/**
 * Text that renders as itself in Markdown (CommonMark, GitHub and Obsidian): `& < >` become entities, and every
 * character that could open markup is backslash-escaped — emphasis `* _ ~`, code `` ` ``, links and wiki links
 * `[ ]`, tags and headings `#`, table cells `|`, math `$`, footnotes and block ids `^`, Obsidian's highlights and
 * comments (`==`, `%%`: only runs of two or more, so "= 8" stays readable), and a list marker at the start (`-`,
 * `+`, `1.`).
 */
export function mdText(value: string): string {
  // One pass for the entities and the backslashes: neither adds a character the other would change.
  let escaped = plainText(value).replace(MD_SPECIAL, mdEscape);
  if (escaped.includes('==') || escaped.includes('%%')) escaped = escaped.replace(/={2,}|%{2,}/g, (run) => run.replace(/./g, '\\$&'));
  const first = escaped.charCodeAt(0);
  if (first === 45 || first === 43) return `\\${escaped}`; // - or +
  return first >= 48 && first <= 57 ? escaped.replace(/^(\d+)([.)])/, '$1\\$2') : escaped;
}

const row = (cells: readonly (string | number)[]) => `| ${cells.map((cell) => (typeof cell === 'number' ? String(cell) : cell)).join(' | ')} |`;

/** A GFM table; `right` marks the numeric columns. */
export function mdTable(head: readonly string[], rows: readonly (readonly (string | number)[])[], right: ReadonlySet<number> = new Set()): string {
  return [row(head), row(head.map((_, i) => (right.has(i) ? '---:' : '---'))), ...rows.map(row)].join('\n');
}

/** One round's figures as a table. */
export function summaryTableMd(round: RoundSummary): string {
  const words = measureWords(round.measure);
  return mdTable(
    ['Combatant', 'Side', words.dealt, words.taken, words.healed, 'Statuses at the end of the round', 'Down'],
    round.combatants.map((c) => [mdText(c.name), mdText(c.side), c.dealt, c.taken, c.healed, c.statuses.map(mdText).join('; '), c.down ? 'went down' : '']),
    new Set([2, 3, 4]),
  );
}

/** The whole fight's figures per combatant. */
export function totalsTableMd(summary: readonly RoundSummary[]): string {
  const words = measureWords(summary[0]?.measure ?? 'damage');
  return mdTable(
    ['Combatant', 'Side', words.dealt, words.taken, words.healed, 'Went down in'],
    totalsOf(summary).map((c) => [mdText(c.name), mdText(c.side), c.dealt, c.taken, c.healed, c.downInRounds.map((r) => `round ${r}`).join(', ')]),
    new Set([2, 3, 4]),
  );
}

/** One log line as a list item: its text as written, the rulings it applied after it. */
export function logItemMd(line: ExportLogLine): string {
  const rulings = line.rulings?.length ? ` *(${line.rulings.map(mdText).join(', ')})*` : '';
  return `- ${mdText(line.text)}${rulings}`;
}

export interface EncounterFacts {
  rulesetName: string;
  /** The view's outcome once the fight has ended. */
  outcome: string | null;
}

export function encounterMarkdown(exported: EncounterExport, facts: EncounterFacts): string {
  const { encounter, summary } = exported;
  const out: string[] = [
    `# ${mdText(encounter.name)}`,
    '',
    `- **Campaign:** ${mdText(encounter.campaignName)}`,
    `- **Ruleset:** ${mdText(facts.rulesetName)}`,
    `- **Rounds:** ${encounter.round}`,
    `- **Outcome:** ${mdText(outcomeText(encounter.phase, encounter.round, facts.outcome))}`,
    `- **Events:** ${exported.events.length}`,
    `- **Exported:** ${mdText(exported.exportedAt)}`,
  ];
  if (summary.length) out.push('', '## Totals', '', totalsTableMd(summary));
  for (const { round, lines } of logByRound(exported)) {
    out.push('', `## ${roundTitle(round, summary)}`, '');
    if (lines.length) out.push(...lines.map(logItemMd));
    else out.push('*Nothing was logged in this round.*');
    const figures = summary.find((s) => s.round === round);
    if (figures) out.push('', summaryTableMd(figures));
  }
  return `${out.join('\n')}\n`;
}
