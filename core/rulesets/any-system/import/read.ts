// What every importer checks the same way: the file's size, names, counts and numbers, each refused with a
// sentence that says where in the file the problem is.
import { ImportRefusal, type ImportedCombatant, type ImportedTable } from '../../importers.ts';

export const FILE_MAX_MB = 10;
export const NAME_MAX = 80;
export const NOTES_MAX = 4000;
export const COUNT_MAX = 50;
/** The most combatants (counting copies) one file may bring. */
export const COMBATANTS_MAX = 1000;
export const HP_MAX = 99_999;
export const AC_MAX = 99;
export const MODIFIER_MAX = 99;

export function refuse(sentence: string): never {
  throw new ImportRefusal(sentence);
}

/** The text without a byte-order mark, refused when empty or too large. */
export function checkedText(content: unknown): string {
  if (typeof content !== 'string') refuse('Choose a file to import.');
  if (content.length > FILE_MAX_MB * 1024 * 1024) refuse(`The file is larger than ${FILE_MAX_MB} MB; a roster from another tracker is far smaller.`);
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === '') refuse('The file is empty.');
  return text;
}

/** The first characters of a long text, for a sentence that quotes it. */
export function quote(text: string, max = 24): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return `“${one.length > max ? `${one.slice(0, max)}…` : one}”`;
}

/** A name: text, trimmed, not empty, at most NAME_MAX characters, with no control characters. */
export function nameAt(value: unknown, where: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (typeof value !== 'string') refuse(`${where} has no name.`);
  const name = value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
  if (name === '') refuse(`${where} has no name.`);
  if (name.length > NAME_MAX) refuse(`${where} has a name of ${name.length.toLocaleString('en')} characters (${quote(name)}); a name is at most ${NAME_MAX}.`);
  return name;
}

/**
 * A whole number between min and max, or null when absent (undefined, null, empty text). Text like "+3" or " 12 "
 * reads as a number; anything else is refused, naming what and where.
 */
export function wholeAt(value: unknown, what: string, where: string, min: number, max: number): number | null {
  if (value === undefined || value === null) return null;
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    if (!/^[+-]?\d+$/.test(text)) refuse(`${where}: the ${what} ${quote(text)} is not a whole number.`);
    number = Number(text);
  } else refuse(`${where}: the ${what} is not a number.`);
  if (!Number.isInteger(number)) refuse(`${where}: the ${what} ${number} is not a whole number.`);
  if (number < min || number > max) refuse(`${where}: the ${what} ${number} is outside ${min} to ${max.toLocaleString('en')}.`);
  return number;
}

export function countAt(value: unknown, where: string): number {
  return wholeAt(value, 'count', where, 1, COUNT_MAX) ?? 1;
}

/** Notes as text, cut at NOTES_MAX characters with a warning. */
export function notesOf(value: unknown, name: string, warnings: string[]): string {
  if (typeof value !== 'string') return '';
  const text = value.trim();
  if (text.length <= NOTES_MAX) return text;
  warnings.push(`The notes of ${quote(name)} were cut to ${NOTES_MAX.toLocaleString('en')} characters.`);
  return text.slice(0, NOTES_MAX);
}

/** The numbers of one combatant, each checked against the same bounds whatever the file. */
export function statsAt(raw: { initiativeModifier?: unknown; hp?: unknown; maxHp?: unknown; tempHp?: unknown; ac?: unknown }, where: string): Pick<ImportedCombatant, 'initiativeModifier' | 'hp' | 'maxHp' | 'tempHp' | 'ac'> {
  const hp = wholeAt(raw.hp, 'HP', where, -HP_MAX, HP_MAX);
  const maxHp = wholeAt(raw.maxHp, 'maximum HP', where, 0, HP_MAX);
  return {
    initiativeModifier: wholeAt(raw.initiativeModifier, 'initiative modifier', where, -MODIFIER_MAX, MODIFIER_MAX),
    hp,
    maxHp,
    tempHp: wholeAt(raw.tempHp, 'temporary HP', where, 0, HP_MAX),
    ac: wholeAt(raw.ac, 'armour class', where, 0, AC_MAX),
  };
}

/** Copies of the same creature (same name and numbers) as one line with a count, in the order first met. */
export function merged(combatants: readonly ImportedCombatant[]): ImportedCombatant[] {
  const lines: ImportedCombatant[] = [];
  const key = (c: ImportedCombatant) => JSON.stringify([c.name, c.template, c.initiativeModifier, c.hp, c.maxHp, c.tempHp, c.ac, c.notes, c.player]);
  const byKey = new Map<string, ImportedCombatant>();
  for (const c of combatants) {
    const same = byKey.get(key(c));
    if (same && same.count + c.count <= COUNT_MAX) same.count += c.count;
    else {
      const line = { ...c };
      byKey.set(key(c), line);
      lines.push(line);
    }
  }
  return lines;
}

/** The table, refused when it brings nothing or more than COMBATANTS_MAX combatants. */
export function finished(table: ImportedTable): ImportedTable {
  const all = [...table.characters, ...table.templates, ...table.encounters.flatMap((e) => e.combatants)];
  if (all.length === 0) refuse(`The file holds no combatants: it is not ${table.source}'s, or it is empty.`);
  const total = all.reduce((sum, c) => sum + c.count, 0);
  if (total > COMBATANTS_MAX) refuse(`The file holds ${total.toLocaleString('en')} combatants; this app imports at most ${COMBATANTS_MAX.toLocaleString('en')} at once.`);
  return table;
}
