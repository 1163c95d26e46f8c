// Reading other trackers' files into a campaign (issue 29 point 4). A ruleset that offers it declares `imports`: the
// readers of each kind of file, and how one imported line becomes its sheet. A reader turns a file into plain values
// (the party, creature templates, encounters) or refuses it with a sentence (ImportRefusal); it writes nothing. The
// `imports:table` handler writes what it read, in one transaction, through the same checks as a GM's own entries.
import type { SheetValues } from './sheet.ts';

/** A file a reader will not read; its message is the sentence the GM sees. Nothing was written. */
export class ImportRefusal extends Error {
  override name = 'ImportRefusal';
}

/** One line of a roster: a creature or a character, `count` copies of it (an encounter's "3 goblins"). */
export interface ImportedCombatant {
  /** Trimmed, at most NAME_MAX characters. */
  name: string;
  /** 1 to COUNT_MAX. */
  count: number;
  initiativeModifier: number | null;
  /** Current hit points; null when the file does not say. */
  hp: number | null;
  maxHp: number | null;
  tempHp: number | null;
  ac: number | null;
  /** At most NOTES_MAX characters (longer text is cut, with a warning). */
  notes: string;
  /** A player character (the party) rather than a creature the GM runs. */
  player: boolean;
  /** In an encounter: the creature this one is a copy of, when the file gave the copy a name of its own ("Grikk", a Goblin Boss). */
  template?: string;
}

export interface ImportedEncounter {
  name: string;
  combatants: ImportedCombatant[];
}

/** Everything one file brings: the party, creature templates, and ready encounters. */
export interface ImportedTable {
  /** The tool the file came from, in words: "Improved Initiative". */
  source: string;
  characters: ImportedCombatant[];
  templates: ImportedCombatant[];
  encounters: ImportedEncounter[];
  /** What was read but not kept as it was (a dice count taken as 1, notes cut): one sentence each. */
  warnings: string[];
}

/** A file another tracker wrote, as the campaign screen offers it. */
export interface TableImporter {
  key: string;
  /** "Improved Initiative (JSON)". */
  label: string;
  /** File name endings the open dialog offers, without the dot. */
  extensions: readonly string[];
  /** The file's contents, or an ImportRefusal with a sentence. */
  read(content: string): ImportedTable;
}

/** What a ruleset reads from other trackers' files, and how one line of them becomes its sheet. */
export interface RulesetImports {
  readers: readonly TableImporter[];
  /** The sheet of one imported line: what the file says, the sheet's defaults for what it does not. */
  sheetOf(line: ImportedCombatant): SheetValues;
}
