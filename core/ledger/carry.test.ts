// Issue 28, point 6: the end-of-fight review says each value in words a GM reads ("as on the sheet", "none",
// "Escalation goes from 1 to 2"), and marks as changed only what the ending changes.
import { describe, expect, it } from 'vitest';
import { carryChanges, carryValueText, partyChangeText } from './carry.ts';

describe('the carry-over in words', () => {
  it('says a value, a set of dice and nothing in words', () => {
    expect(carryValueText(5)).toBe('5');
    expect(carryValueText(true)).toBe('yes');
    expect(carryValueText(null)).toBe('none');
    expect(carryValueText({})).toBe('none');
    expect(carryValueText({ endure: 'd8', grip: 'd6' })).toBe('endure d8, grip d6');
  });

  it('counts as changed only a value the fight changes or leaves something in', () => {
    expect(carryChanges({ before: 5, after: 4 })).toBe(true);
    expect(carryChanges({ before: 5, after: 5 })).toBe(false);
    expect(carryChanges({ before: { endure: 'd8' }, after: { endure: 'd8' } })).toBe(false);
    // A value the campaign has never kept: a fight that leaves nothing in it changes nothing.
    expect(carryChanges({ before: null, after: false })).toBe(false);
    expect(carryChanges({ before: null, after: 0 })).toBe(false);
    expect(carryChanges({ before: null, after: 'none' })).toBe(false);
    expect(carryChanges({ before: null, after: 4 })).toBe(true);
  });

  it('says a party-wide value as a sentence, never "Escalation — → 2"', () => {
    expect(partyChangeText({ label: 'Escalation', before: null, after: 2 })).toBe('Escalation is kept at 2 (the campaign held none before)');
    expect(partyChangeText({ label: 'Escalation', before: 1, after: 2 })).toBe('Escalation goes from 1 to 2');
    expect(partyChangeText({ label: 'Escalation', before: 2, after: 2 })).toBe('Escalation stays at 2');
  });
});

describe('what a character holds before its first carried fight', () => {
  it('reads a value and a set of dice from the sheet when the campaign has kept none', async () => {
    const { carryFields } = await import('./carry.ts');
    const fields = carryFields({ endure: 8, navigate: 6, lp: undefined }, { lp: 4, dice: { endure: 8, navigate: 6 }, healingRestriction: null });
    expect(fields.map((f) => [f.key, f.before])).toEqual([['lp', null], ['dice', { endure: 8, navigate: 6 }], ['healingRestriction', null]]);
    expect(fields.filter(carryChanges).map((f) => f.key)).toEqual(['lp']);
    expect(carryValueText({ endure: 8, navigate: 6 }, 'dice')).toBe('endure d8, navigate d6');
  });
});
