// Obsidian's Initiative Tracker: its ```encounter (and ```encounter-table) blocks in a note. A block is YAML; it may
// hold several encounters separated by `---` lines. Each encounter has a `name`, `creatures` and `players`.
// A creature is text — "Goblin", "3: Goblin", "Goblin, 7, 15, 2" (name, HP, AC, initiative modifier, XP) — or a
// one-key map `{ 3: "Goblin, 7, 15, 2" }`. The plugin fills missing numbers from its own bestiary, which the file
// does not carry: those stay empty, with a warning. Players are names from the plugin's settings: they become the
// party, with no numbers.
import { parseAllDocuments } from 'yaml';
import { checkedText, countAt, finished, merged, nameAt, quote, refuse, statsAt } from './read.ts';
import type { ImportedCombatant, ImportedEncounter, ImportedTable, TableImporter } from '../../importers.ts';

const SOURCE = 'Obsidian Initiative Tracker';
const FENCE = /^(`{3,}|~{3,})[ \t]*encounter(?:-table)?[ \t]*\r?\n([\s\S]*?)^\1[ \t]*$/gm;

/** The YAML of each encounter: every fenced block, or the whole text when it has none. */
function encounterTexts(text: string): string[] {
  const blocks = [...text.matchAll(FENCE)].map((m) => m[2] ?? '');
  if (blocks.length === 0 && /```|~~~/.test(text)) refuse('The note has no ```encounter block.');
  return (blocks.length ? blocks : [text]).flatMap((block) => block.split(/^---[ \t]*$/m)).filter((part) => part.trim() !== '');
}

/** "3: Goblin, 7, 15, 2" or { 3: "Goblin, 7, 15, 2" }, as count and the text after it. */
function countAndText(raw: unknown, where: string, warnings: string[]): { count: number; text: string } {
  let count: unknown = 1;
  let text: unknown = raw;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const entries = Object.entries(raw);
    if (entries.length !== 1) refuse(`${where} is not a creature line: write “3: Goblin” or “Goblin, 7, 15, 2”.`);
    [count, text] = entries[0] ?? [];
  } else if (typeof raw === 'string') {
    const match = /^\s*([^:,]+?)\s*:\s*(.+)$/.exec(raw);
    if (match?.[1] !== undefined && /^\s*(\d+|\d*d\d+([+-]\d+)?)\s*$/i.test(match[1])) [, count, text] = match;
  } else if (typeof raw !== 'number') refuse(`${where} is not a creature line: write “3: Goblin” or “Goblin, 7, 15, 2”.`);
  if (typeof count === 'string' && /d/i.test(count)) {
    warnings.push(`${where}: the count ${quote(count)} is a roll; it was read as 1 (change it when you add them).`);
    count = 1;
  }
  return { count: countAt(count, where), text: typeof text === 'number' ? String(text) : typeof text === 'string' ? text : '' };
}

function creatureAt(raw: unknown, where: string, warnings: string[]): ImportedCombatant {
  const { count, text } = countAndText(raw, where, warnings);
  const [name, hp, ac, modifier] = text.split(',').map((part) => part.trim());
  const number = (part: string | undefined) => (part !== undefined && /^[+-]?\d+$/.test(part) ? part : null);
  const creature: ImportedCombatant = {
    name: nameAt(name, where),
    count,
    ...statsAt({ hp: number(hp), maxHp: number(hp), ac: number(ac), initiativeModifier: number(modifier) }, where),
    notes: '',
    player: false,
  };
  if (creature.maxHp === null) warnings.push(`${where}: ${quote(creature.name)} has no HP in the block (the plugin takes it from its bestiary); set it before the fight.`);
  return creature;
}

function playersOf(raw: unknown, where: string, warnings: string[]): ImportedCombatant[] {
  if (raw === undefined || raw === null || raw === false || raw === 'none') return [];
  if (raw === true) {
    warnings.push(`${where}: “players: true” means every player in the plugin's settings, which the note does not list; add your party by hand.`);
    return [];
  }
  const names = Array.isArray(raw) ? raw : [raw];
  return names.map((name, i) => ({ name: nameAt(name, `${where}, player ${i + 1}`), count: 1, initiativeModifier: null, hp: null, maxHp: null, tempHp: null, ac: null, notes: '', player: true }));
}

export function readObsidianEncounters(content: string): ImportedTable {
  const text = checkedText(content);
  const table: ImportedTable = { source: SOURCE, characters: [], templates: [], encounters: [], warnings: [] };
  const texts = encounterTexts(text);
  texts.forEach((yamlText, index) => {
    const where = texts.length > 1 ? `Encounter ${index + 1}` : 'The encounter';
    const invalid = (line?: number): never => refuse(`${where} is not valid YAML${line ? ` (line ${line})` : ''}, so it is not an Initiative Tracker block.`);
    const documents = parseAllDocuments(yamlText);
    const document = Array.isArray(documents) ? documents[0] : undefined;
    const error = Array.isArray(documents) ? documents.flatMap((d) => d.errors)[0] : undefined;
    if (document === undefined || error) return invalid(error?.linePos?.[0].line);
    let params: unknown;
    try {
      // An alias used before its anchor, or aliases past the limit (a "billion laughs"), throw here.
      params = document.toJS({ maxAliasCount: 100 });
    } catch {
      invalid();
    }
    if (params === null || typeof params !== 'object' || Array.isArray(params) || !('creatures' in params || 'players' in params)) {
      refuse(`${where} has neither “creatures” nor “players”, so it is not an Initiative Tracker block.`);
    }
    const { name, creatures, players } = params as { name?: unknown; creatures?: unknown; players?: unknown };
    if (creatures !== undefined && creatures !== null && !Array.isArray(creatures)) refuse(`${where}: “creatures” is not a list.`);
    const encounter: ImportedEncounter = {
      name: name === undefined || name === null || name === '' ? (texts.length > 1 ? `Imported encounter ${index + 1}` : 'Imported encounter') : nameAt(name, `${where}'s name`),
      combatants: merged((creatures ?? []).map((raw, i) => creatureAt(raw, `${where}, creature ${i + 1}`, table.warnings))),
    };
    if (encounter.combatants.length) table.encounters.push(encounter);
    for (const player of playersOf(players, where, table.warnings)) {
      if (!table.characters.some((c) => c.name === player.name)) table.characters.push(player);
    }
  });
  return finished(table);
}

export const obsidianInitiativeTracker: TableImporter = {
  key: 'obsidian-initiative-tracker',
  label: 'Obsidian Initiative Tracker (encounter blocks)',
  extensions: ['md', 'markdown', 'txt', 'yaml', 'yml'],
  read: readObsidianEncounters,
};
