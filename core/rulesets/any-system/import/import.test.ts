// The importers of other trackers' files: each committed sample reads to the party, templates and encounters a GM
// would expect, and a file that is not what it claims is refused with a sentence (an ImportRefusal, never another
// error), whatever its bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsvRoster } from './csv.ts';
import { TABLE_IMPORTERS } from './index.ts';
import { readImprovedInitiative } from './improved-initiative.ts';
import { readObsidianEncounters } from './obsidian.ts';
import { ImportRefusal, type ImportedCombatant } from '../../importers.ts';

const sample = (name: string) => readFileSync(join(import.meta.dirname, 'samples', name), 'utf8');
const line = (name: string, count: number, initiativeModifier: number | null, hp: number | null, maxHp: number | null, ac: number | null, extra: Partial<ImportedCombatant> = {}): ImportedCombatant => ({
  name, count, initiativeModifier, hp, maxHp, tempHp: null, ac, notes: '', player: false, ...extra,
});
/** The sentence a reader refuses the text with; fails when it reads it. */
function refusal(read: (text: string) => unknown, text: string): string {
  try {
    read(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefusal);
    return (error as Error).message;
  }
  throw new Error('the file was read');
}

describe('Improved Initiative', () => {
  it('reads an "export all" file: creatures as templates, characters as the party, saved encounters with copies counted', () => {
    const table = readImprovedInitiative(sample('improved-initiative-export.json'));
    expect(table.source).toBe('Improved Initiative');
    expect(table.characters).toEqual([line('Ada the Bold', 1, 1, 18, 28, 18, { notes: 'Human fighter 3\nOwes the guild 40 gp.', player: true })]);
    expect(table.templates).toEqual([
      line('Goblin Boss', 1, 2, 21, 21, 17, { notes: 'Small humanoid (goblinoid)\nChallenge 1\nRedirects attacks to a nearby goblin.' }),
      // No initiative modifier of its own: the Dexterity modifier (Dex 15 → +2).
      line('Wolf', 1, 2, 11, 11, 13, { notes: 'Medium beast\nChallenge 1/4' }),
    ]);
    expect(table.encounters).toEqual([{
      name: 'Ambush at the ford',
      combatants: [line('Wolf', 2, 2, 11, 11, 13, { tempHp: 0 }), line('Grikk', 1, 2, 21, 21, 17, { tempHp: 5, template: 'Goblin Boss' })],
    }]);
    expect(table.warnings).toEqual([]);
  });

  it('reads the older export, whose keys start with "ImprovedInitiative." and whose values are JSON text', () => {
    const table = readImprovedInitiative(sample('improved-initiative-legacy.json'));
    expect(table.templates).toEqual([line('Skeleton', 1, 2, 13, 13, 13)]);
    expect(table.characters).toEqual([line('Bo', 1, 3, 9, 9, 12, { player: true })]);
  });

  it('reads one saved encounter, its player characters marked as such, with their current HP', () => {
    const table = readImprovedInitiative(sample('improved-initiative-encounter.json'));
    expect(table.encounters).toEqual([{
      name: 'Crypt door',
      combatants: [line('Ghoul', 2, 2, 22, 22, 12, { tempHp: 0 }), line('Mira', 1, 4, 24, 30, 15, { tempHp: 0, player: true })],
    }]);
  });

  it('refuses what is not its file, saying why', () => {
    expect(refusal(readImprovedInitiative, '')).toBe('The file is empty.');
    expect(refusal(readImprovedInitiative, 'Name,HP\nGoblin,7')).toBe('The file is not valid JSON, so it is not an Improved Initiative export.');
    expect(refusal(readImprovedInitiative, '[1, 2]')).toBe('The file is not an Improved Initiative export: it holds no creatures, characters or encounters.');
    // Our own campaign export is not Improved Initiative's.
    expect(refusal(readImprovedInitiative, JSON.stringify({ format: 'gm-workstation-campaign', version: 1, campaign: {} }))).toBe('The file is not an Improved Initiative export: it holds no creatures, characters or encounters.');
    expect(refusal(readImprovedInitiative, JSON.stringify({ 'Creatures.x': 'a goblin' }))).toBe('Creature “x” is not an Improved Initiative stat block.');
    expect(refusal(readImprovedInitiative, JSON.stringify({ 'Creatures.x': { Name: 'Ogre', HP: { Value: 'lots' } } }))).toBe('Creature “x” (“Ogre”): the HP “lots” is not a whole number.');
    expect(refusal(readImprovedInitiative, JSON.stringify({ 'Creatures.x': { Name: 'Ogre', HP: { Value: 7.5 } } }))).toBe('Creature “x” (“Ogre”): the HP 7.5 is not a whole number.');
    expect(refusal(readImprovedInitiative, JSON.stringify({ 'Creatures.x': { Name: 'G'.repeat(10_000) } }))).toBe('Creature “x” has a name of 10,000 characters (“GGGGGGGGGGGGGGGGGGGGGGGG…”); a name is at most 80.');
    expect(refusal(readImprovedInitiative, JSON.stringify({ Name: 'Big', Combatants: Array.from({ length: 1001 }, (_, i) => ({ StatBlock: { Name: `G${i}`, HP: { Value: 1 } } })) }))).toBe('The file holds 1,001 combatants; this app imports at most 1,000 at once.');
    expect(refusal(readImprovedInitiative, `${'['.repeat(70)}${']'.repeat(70)}`)).toMatch(/nests data more than 64 levels/);
    expect(refusal(readImprovedInitiative, JSON.stringify({ 'SavedEncounters.e': { Name: 'Empty', Combatants: [] } }))).toBe('The file holds no combatants: it is not Improved Initiative\'s, or it is empty.');
  });
});

describe('Obsidian Initiative Tracker', () => {
  it('reads every encounter block of a note, with counts, numbers, a rolled count taken as 1, and the named players', () => {
    const table = readObsidianEncounters(sample('obsidian-note.md'));
    expect(table.encounters).toEqual([
      { name: 'Bridge toll', combatants: [line('Bandit', 3, 1, 11, 11, 12), line('Bandit Captain', 1, 3, 65, 65, 15), line('Wolf', 1, null, null, null, null)] },
      { name: 'Old mill', combatants: [line('Giant Rat', 2, 2, 7, 7, 12), line('Ogre', 1, -1, 59, 59, 11)] },
      { name: 'Mill cellar', combatants: [line('Ghost', 1, null, null, null, null)] },
    ]);
    expect(table.characters.map((c) => [c.name, c.player])).toEqual([['Ada', true], ['Bo', true]]);
    expect(table.warnings).toEqual([
      'Encounter 1, creature 3: the count “1d4” is a roll; it was read as 1 (change it when you add them).',
      'Encounter 1, creature 3: “Wolf” has no HP in the block (the plugin takes it from its bestiary); set it before the fight.',
      'Encounter 3, creature 1: “Ghost” has no HP in the block (the plugin takes it from its bestiary); set it before the fight.',
      'Encounter 3: “players: true” means every player in the plugin\'s settings, which the note does not list; add your party by hand.',
    ]);
  });

  it('reads a bare block pasted without its fence', () => {
    const table = readObsidianEncounters('name: Quick\ncreatures:\n  - 2: Kobold, 5, 12, 2\n  - Kobold, 5, 12, 2\n');
    expect(table.encounters).toEqual([{ name: 'Quick', combatants: [line('Kobold', 3, 2, 5, 5, 12)] }]);
  });

  it('refuses a note or block it cannot read, saying where', () => {
    expect(refusal(readObsidianEncounters, '# Notes\n\n```statblock\nname: Goblin\n```\n')).toBe('The note has no ```encounter block.');
    expect(refusal(readObsidianEncounters, '```encounter\ncreatures:\n  - [Goblin\n```\n')).toMatch(/^The encounter is not valid YAML \(line \d+\), so it is not an Initiative Tracker block\.$/);
    expect(refusal(readObsidianEncounters, 'Just a shopping list: eggs, milk')).toBe('The encounter has neither “creatures” nor “players”, so it is not an Initiative Tracker block.');
    expect(refusal(readObsidianEncounters, 'creatures: Goblin')).toBe('The encounter: “creatures” is not a list.');
    expect(refusal(readObsidianEncounters, 'creatures:\n  - 99: Goblin')).toBe('The encounter, creature 1: the count 99 is outside 1 to 50.');
    expect(refusal(readObsidianEncounters, 'creatures:\n  - { 2: Goblin, 3: Orc }')).toBe('The encounter, creature 1 is not a creature line: write “3: Goblin” or “Goblin, 7, 15, 2”.');
    expect(refusal(readObsidianEncounters, `creatures:\n  - ${'x'.repeat(10_000)}`)).toMatch(/^The encounter, creature 1 has a name of 10,000 characters/);
    // A billion laughs: aliases past the limit are refused, not expanded.
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`), 'creatures: [*i]'].join('\n');
    expect(refusal(readObsidianEncounters, bomb)).toBe('The encounter is not valid YAML, so it is not an Initiative Tracker block.');
  });
});

describe('CSV', () => {
  it('reads a header row in any order, with counts, AC, multi-line notes and player rows as the party', () => {
    const table = readCsvRoster(sample('roster.csv'));
    expect(table.templates).toEqual([line('Bandit', 3, 1, 11, 11, 12, { notes: 'Cheap blade, rusty' }), line('Bandit Captain', 1, 3, 65, 65, 15)]);
    expect(table.characters).toEqual([line('Ada the Bold', 1, 1, 28, 28, 18, { notes: 'Owes the guild 40 gp.\nAsks about her brother.', player: true })]);
  });

  it('reads a file with no header as name, initiative modifier, HP, notes, and finds the ";" separator', () => {
    const table = readCsvRoster(sample('roster-no-header.csv'));
    expect(table.templates).toEqual([
      line('Goblin', 1, 2, 7, 7, null, { notes: 'Sneaky' }),
      line('Hobgoblin', 1, 1, 11, 11, null),
      line('Orc; the big one', 1, 0, 15, 15, null, { notes: 'Says "no"' }),
    ]);
  });

  it('refuses a row it cannot read, naming the row', () => {
    expect(refusal(readCsvRoster, 'Name,HP\nGoblin,seven\n')).toBe('Row 2: the HP “seven” is not a whole number.');
    expect(refusal(readCsvRoster, 'Name,HP\n,7\n')).toBe('Row 2 has no name.');
    expect(refusal(readCsvRoster, `Name,HP\n${'N'.repeat(10_000)},7\n`)).toMatch(/^Row 2 has a name of 10,000 characters \(“N{24}…”\); a name is at most 80\.$/);
    expect(refusal(readCsvRoster, 'Name,HP,Max HP\nGoblin,9,7\n')).toBe('Row 2: HP 9 is above the maximum HP 7.');
    expect(refusal(readCsvRoster, 'Name,Init,Initiative\nGoblin,1,2\n')).toBe('The header names the initiative modifier column twice.');
    expect(refusal(readCsvRoster, 'Name,HP\n"Goblin,7\n')).toBe('Row 2: a quoted field is never closed.');
    expect(refusal(readCsvRoster, 'Name,Count\nGoblin,1000\n')).toBe('Row 2: the count 1000 is outside 1 to 50.');
    expect(refusal(readCsvRoster, '\uFEFF\n\n')).toBe('The file is empty.');
  });
});

describe('every importer', () => {
  it('refuses anything it cannot read with a sentence, never another error, whatever the bytes', () => {
    const texts = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.json({ maxDepth: 4 }),
      fc.array(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), { maxLength: 8 }).map((rows) => rows.map((r) => r.join(',')).join('\n')),
      fc.constantFrom(...['improved-initiative-export.json', 'obsidian-note.md', 'roster.csv'].map(sample)).chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
    );
    fc.assert(fc.property(texts, (text) => {
      for (const importer of TABLE_IMPORTERS) {
        try {
          const table = importer.read(text);
          const all = [...table.characters, ...table.templates, ...table.encounters.flatMap((e) => e.combatants)];
          expect(all.length).toBeGreaterThan(0);
          for (const c of all) expect(c.name.length).toBeGreaterThan(0);
        } catch (error) {
          if (!(error instanceof ImportRefusal)) throw error;
          expect(error.message).toMatch(/^[A-Z“].*[.)]$/s);
        }
      }
    }), { numRuns: 300 });
  });

  it('has a key, a label and file endings for the open dialog', () => {
    expect(TABLE_IMPORTERS.map((i) => i.key)).toEqual(['improved-initiative', 'obsidian-initiative-tracker', 'csv']);
    for (const importer of TABLE_IMPORTERS) expect(importer.extensions.length).toBeGreaterThan(0);
  });
});
