// Improved Initiative's files: the "export all" file of its settings (keys `Creatures.<id>`,
// `PersistentCharacters.<id>`, `SavedEncounters.<id>`, `Spells.<id>`; older versions prefix each with
// `ImprovedInitiative.` and store the value as JSON text), and one saved encounter (`{ Name, Combatants: [...] }`).
// Creatures become templates, persistent characters the party, saved encounters encounters. Spells and settings are
// not combatants and are skipped.
import { IMPORT_MAX_DEPTH, nestingDepth } from '../../../export/campaign.ts';
import { checkedText, finished, merged, nameAt, notesOf, quote, refuse, statsAt } from './read.ts';
import type { ImportedCombatant, ImportedTable, TableImporter } from '../../importers.ts';

const SOURCE = 'Improved Initiative';
const LEGACY = 'ImprovedInitiative.';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `{ Value }` (HP, AC) or a bare number. */
const valueOf = (field: unknown): unknown => (isObject(field) ? field.Value : field);

/** The Dexterity modifier, when a stat block gives no initiative modifier of its own. */
function dexModifier(block: Json): number | null {
  const dex = isObject(block.Abilities) ? block.Abilities.Dex : undefined;
  return typeof dex === 'number' && Number.isInteger(dex) ? Math.floor((dex - 10) / 2) : null;
}

/** One stat block (a library creature or a character's), as a combatant. */
function fromStatBlock(block: unknown, where: string, warnings: string[], extra: Json = {}): ImportedCombatant {
  if (!isObject(block)) refuse(`${where} is not an Improved Initiative stat block.`);
  const name = nameAt(extra.Name ?? block.Name, where);
  const at = `${where} (${quote(name)})`;
  const hpMax = extra.MaxHP ?? valueOf(block.HP);
  const modifier = block.InitiativeModifier ?? extra.InitiativeBonus ?? dexModifier(block);
  const notes = [block.Type, block.Challenge ? `Challenge ${String(block.Challenge)}` : '', extra.Notes ?? extra.CurrentNotes ?? block.Description]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '').join('\n');
  return {
    name,
    count: 1,
    ...statsAt({ initiativeModifier: modifier, hp: extra.CurrentHP ?? hpMax, maxHp: hpMax, tempHp: extra.TemporaryHP, ac: valueOf(block.AC) }, at),
    notes: notesOf(notes, name, warnings),
    player: block.Player === 'player' || typeof extra.PersistentCharacterId === 'string' || extra.player === true,
  };
}

/** A saved encounter's combatants: the alias when the GM gave one, else the creature's name. */
function fromEncounter(saved: unknown, where: string, warnings: string[]): { name: string; combatants: ImportedCombatant[] } {
  if (!isObject(saved) || !Array.isArray(saved.Combatants)) refuse(`${where} is not an Improved Initiative encounter.`);
  const name = typeof saved.Name === 'string' && saved.Name.trim() !== '' ? nameAt(saved.Name, where) : 'Imported encounter';
  const combatants = saved.Combatants.map((c, i) => {
    const at = `${where}, combatant ${i + 1}`;
    if (!isObject(c)) refuse(`${at} is not an Improved Initiative combatant.`);
    const alias = typeof c.Alias === 'string' && c.Alias.trim() !== '' ? c.Alias : undefined;
    const combatant = fromStatBlock(c.StatBlock, at, warnings, { Name: alias, MaxHP: c.MaxHP, CurrentHP: c.CurrentHP, TemporaryHP: c.TemporaryHP, InitiativeBonus: c.InitiativeBonus, CurrentNotes: c.CurrentNotes, PersistentCharacterId: c.PersistentCharacterId });
    const creature = isObject(c.StatBlock) && typeof c.StatBlock.Name === 'string' ? c.StatBlock.Name.trim() : '';
    // A creature the GM renamed in the fight ("Grikk") stays a copy of its stat block ("Goblin Boss").
    return alias !== undefined && !combatant.player && creature !== '' && creature !== combatant.name ? { ...combatant, template: nameAt(creature, at) } : combatant;
  });
  return { name, combatants: merged(combatants) };
}

/** A persistent character: its stat block with its own name, hit points and notes. */
function fromCharacter(character: unknown, where: string, warnings: string[]): ImportedCombatant {
  if (!isObject(character)) refuse(`${where} is not an Improved Initiative character.`);
  return fromStatBlock(character.StatBlock, where, warnings, { Name: character.Name, CurrentHP: character.CurrentHP, Notes: character.Notes, player: true });
}

/** The value under a key of the export file; the older format stores it as JSON text. */
function entryValue(key: string, value: unknown): unknown {
  if (!key.startsWith(LEGACY) || typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    refuse(`The entry “${key.slice(0, 60)}” is not valid JSON.`);
  }
}

export function readImprovedInitiative(content: string): ImportedTable {
  const text = checkedText(content);
  if (nestingDepth(text, IMPORT_MAX_DEPTH) > IMPORT_MAX_DEPTH) refuse(`The file nests data more than ${IMPORT_MAX_DEPTH} levels deep, which no Improved Initiative file does.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse('The file is not valid JSON, so it is not an Improved Initiative export.');
  }
  if (!isObject(value)) refuse('The file is not an Improved Initiative export: it holds no creatures, characters or encounters.');
  const table: ImportedTable = { source: SOURCE, characters: [], templates: [], encounters: [], warnings: [] };
  if (Array.isArray(value.Combatants)) {
    table.encounters.push(fromEncounter(value, 'The encounter', table.warnings));
    return finished(table);
  }
  let known = 0;
  for (const [key, raw] of Object.entries(value)) {
    const match = /^(?:ImprovedInitiative\.)?(Creatures|PersistentCharacters|PlayerCharacters|SavedEncounters)\.(.+)$/.exec(key);
    if (!match) continue;
    known += 1;
    const entry = entryValue(key, raw);
    const [, list, id = ''] = match;
    if (list === 'SavedEncounters') table.encounters.push(fromEncounter(entry, `Saved encounter ${quote(id)}`, table.warnings));
    else if (list === 'Creatures') {
      const creature = fromStatBlock(entry, `Creature ${quote(id)}`, table.warnings);
      (creature.player ? table.characters : table.templates).push(creature);
    } else if (list === 'PersistentCharacters') table.characters.push(fromCharacter(entry, `Character ${quote(id)}`, table.warnings));
    else table.characters.push({ ...fromStatBlock(entry, `Player character ${quote(id)}`, table.warnings), player: true });
  }
  if (known === 0) refuse('The file is not an Improved Initiative export: it holds no creatures, characters or encounters.');
  return finished(table);
}

export const improvedInitiative: TableImporter = {
  key: 'improved-initiative',
  label: 'Improved Initiative (JSON)',
  extensions: ['json'],
  read: readImprovedInitiative,
};

