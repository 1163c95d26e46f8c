// One line of another tracker's file as an Any system sheet: what the file says, the sheet's defaults for what it
// does not. Numbers outside the sheet's bounds are left as they are, so the sheet's own check refuses them with its
// sentence (the import then writes nothing).
import type { ImportedCombatant, RulesetImports } from '../../importers.ts';
import { defaultSheet, type SheetValues } from '../../sheet.ts';
import { anySystemSheet } from '../sheet.ts';
import { TABLE_IMPORTERS } from './index.ts';

const defaults = defaultSheet(anySystemSheet);

export function anySystemSheetOf(line: ImportedCombatant): SheetValues {
  const hpMax = line.maxHp ?? line.hp ?? Number(defaults['hpMax']);
  return {
    ...defaults,
    hpMax,
    // A creature below 0 in the other tracker is at 0 here; current HP is never above the maximum.
    hp: Math.min(Math.max(line.hp ?? hpMax, 0), hpMax),
    ...(line.tempHp !== null ? { tempHp: line.tempHp } : {}),
    ...(line.ac !== null ? { ac: line.ac } : {}),
    ...(line.initiativeModifier !== null ? { initiativeModifier: line.initiativeModifier } : {}),
    notes: line.notes,
  };
}

export const anySystemImports: RulesetImports = { readers: TABLE_IMPORTERS, sheetOf: anySystemSheetOf };
