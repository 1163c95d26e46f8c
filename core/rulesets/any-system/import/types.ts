// What the importers read out of another tracker's file, before anything is written: plain values in the shape of
// "Any system"'s sheet (HP, maximum and temporary HP, armour class, initiative modifier, notes). Every importer
// returns this or refuses the file with a sentence (ImportRefusal); none writes.

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
