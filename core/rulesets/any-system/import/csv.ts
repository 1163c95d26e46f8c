// A plain CSV a GM keeps in a spreadsheet: one combatant per row. With a header row, columns are found by name (see
// COLUMNS; case and spaces do not matter); without one, the columns are name, initiative modifier, HP, notes. The
// separator (comma, semicolon or tab) is detected. Rows marked as players ("player", "pc", "yes", "x" in a Player
// column) become the party; the others become templates.
import Papa from 'papaparse';
import { checkedText, countAt, finished, nameAt, notesOf, refuse, statsAt } from './read.ts';
import type { ImportedCombatant, ImportedTable, TableImporter } from '../../importers.ts';

const SOURCE = 'a CSV roster';

type Column = 'name' | 'initiativeModifier' | 'hp' | 'maxHp' | 'tempHp' | 'ac' | 'notes' | 'count' | 'player';

/** Header words for each column, compared without case, spaces, dots, dashes or underscores. */
const COLUMNS: Record<Column, readonly string[]> = {
  name: ['name', 'creature', 'combatant', 'character', 'monster'],
  initiativeModifier: ['initiativemodifier', 'initmodifier', 'initmod', 'init', 'initiative', 'initiativebonus', 'initbonus', 'modifier', 'mod'],
  hp: ['hp', 'hitpoints', 'currenthp', 'health'],
  maxHp: ['maxhp', 'hpmax', 'maximumhp', 'maxhitpoints'],
  tempHp: ['temphp', 'temporaryhp', 'thp'],
  ac: ['ac', 'armorclass', 'armourclass'],
  notes: ['notes', 'note', 'description', 'comments'],
  count: ['count', 'qty', 'quantity', 'number', 'copies', '#'],
  player: ['player', 'pc', 'isplayer', 'party'],
};
const POSITIONAL: readonly Column[] = ['name', 'initiativeModifier', 'hp', 'notes'];
const YES = new Set(['player', 'pc', 'yes', 'y', 'true', 'x', '1']);

const squeeze = (header: string) => header.toLowerCase().replace(/[\s._-]/g, '');
const columnOf = (header: string): Column | undefined => (Object.keys(COLUMNS) as Column[]).find((c) => COLUMNS[c].includes(squeeze(header)));

/** Which column each cell of a row feeds, from a header row; null when the first row is data. */
function headerOf(first: readonly string[]): (Column | undefined)[] | null {
  const columns = first.map(columnOf);
  if (!columns.includes('name')) return null;
  const twice = columns.find((c, i) => c !== undefined && columns.indexOf(c) !== i);
  if (twice) refuse(`The header names the ${twice === 'initiativeModifier' ? 'initiative modifier' : twice} column twice.`);
  return columns;
}

export function readCsvRoster(content: string): ImportedTable {
  const text = checkedText(content);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const broken = parsed.errors.find((e) => e.type === 'Quotes');
  if (broken) refuse(`Row ${(broken.row ?? 0) + 1}: a quoted field is never closed.`);
  const rows = parsed.data;
  if (rows.length === 0) refuse('The file is empty.');
  const first = rows[0] ?? [];
  const header = headerOf(first);
  const columns = header ?? POSITIONAL;
  const table: ImportedTable = { source: SOURCE, characters: [], templates: [], encounters: [], warnings: [] };
  rows.slice(header ? 1 : 0).forEach((row, i) => {
    const where = `Row ${i + (header ? 2 : 1)}`;
    const cell: Partial<Record<Column, string>> = {};
    columns.forEach((column, c) => {
      if (column && row[c] !== undefined) cell[column] = row[c];
    });
    const name = nameAt(cell.name, where);
    const combatant: ImportedCombatant = {
      name,
      count: countAt(cell.count, where),
      ...statsAt({ initiativeModifier: cell.initiativeModifier, hp: cell.hp, maxHp: cell.maxHp ?? cell.hp, tempHp: cell.tempHp, ac: cell.ac }, where),
      notes: notesOf(cell.notes, name, table.warnings),
      player: YES.has((cell.player ?? '').trim().toLowerCase()),
    };
    if (combatant.hp !== null && combatant.maxHp !== null && combatant.hp > combatant.maxHp) refuse(`${where}: HP ${combatant.hp} is above the maximum HP ${combatant.maxHp}.`);
    (combatant.player ? table.characters : table.templates).push(combatant);
  });
  if (!header && first.length < 2) table.warnings.push('The file has one column and no header: each row was read as a name.');
  return finished(table);
}

export const csvRoster: TableImporter = {
  key: 'csv',
  label: 'CSV (name, initiative modifier, HP, notes)',
  extensions: ['csv', 'tsv', 'txt'],
  read: readCsvRoster,
};
