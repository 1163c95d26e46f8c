import { describe, expect, it } from 'vitest';
import { cairnErrantSheet } from '../../../core/rulesets/cairn-errant/sheet.ts';
import { defaultSheet, type SheetValues } from '../../../core/rulesets/sheet.ts';
import { carriedNote } from './carried-note.ts';

const fields = cairnErrantSheet.fields;
const field = (key: string) => fields.find((f) => f.key === key)!;
const sheet: SheetValues = { ...defaultSheet(cairnErrantSheet), hpMax: 10, hp: 10 };

describe('carriedNote', () => {
  it('says which value counts once a fight was carried, with its maximum', () => {
    expect(carriedNote(field('hp'), fields, sheet, { hp: 6 })).toBe('The campaign holds 6/10 from the last fight; this value is not used.');
    // A carried maximum is the one shown (STR lowered by a wound).
    expect(carriedNote(field('str'), fields, sheet, { str: 5, strMax: 8 })).toBe('The campaign holds 5/8 from the last fight; this value is not used.');
    expect(carriedNote(field('strMax'), fields, sheet, { str: 5, strMax: 8 })).toBe('The campaign holds 8 from the last fight; this value is not used.');
    expect(carriedNote(field('unconscious'), fields, sheet, { unconscious: false })).toBe('The campaign holds "no" from the last fight; this box is not used.');
  });

  it('says nothing when the sheet counts: no fight carried, or a field the fight does not carry', () => {
    expect(carriedNote(field('hp'), fields, sheet, {})).toBeNull();
    expect(carriedNote(field('armor'), fields, sheet, { hp: 6 })).toBeNull();
    expect(carriedNote(field('notes'), fields, sheet, { notes: 'x' })).toBeNull();
  });
});
