// What Enigma's view gives the runner to draw on a row without reading `details`: running injuries as marks (their
// words as the runner has always written them) and Mortal Peril as an alert tag.
import { describe, expect, it } from 'vitest';
import { fight, seed } from '../../../../core/rulesets/enigma/testing.ts';

const injury = (id: string, name: string, category: string, restsRemaining: number, permanent = false) =>
  ({ id, name, category, baseRoll: Math.max(1, restsRemaining), multiplier: 1, restsRemaining, permanent, cureCondition: null, notes: '' });

describe("Enigma's rows: marks and alerts", () => {
  it('marks each running injury with its rests left in words, or permanent, and its category in the tooltip', () => {
    const carried = { injuries: [injury('i1', 'Sprained Ankle', 'speed', 1), injury('i2', 'Cracked Ribs', 'endure', 3), injury('i3', 'Lost Eye', 'glean', 0, true)] };
    const e = fight([seed('hero', 'party', {}, { carried }), seed('goblin', 'gm')]);
    const [hero, goblin] = ['hero', 'goblin'].map((id) => e.view().order.find((c) => c.id === id)!);
    expect(hero!.marks).toEqual([
      { id: 'i1', text: 'Sprained Ankle · 1 rest', title: 'speed injury' },
      { id: 'i2', text: 'Cracked Ribs · 3 rests', title: 'endure injury' },
      { id: 'i3', text: 'Lost Eye · permanent', title: 'glean injury' },
    ]);
    expect(goblin!.marks).toBeUndefined();
    expect(hero!.alertTags).toBeUndefined();
  });

  it('draws Mortal Peril as an alert while it waits, and no more once answered', () => {
    const e = fight([seed('hero', 'party'), seed('goblin', 'gm')]);
    e.apply({ type: 'APPLY_DAMAGE', targetId: 'hero', amount: 50, source: '' });
    const waiting = e.view().order.find((c) => c.id === 'hero')!;
    expect(waiting.tags).toContain('Mortal Peril');
    expect(waiting.alertTags).toEqual(['Mortal Peril']);
    e.apply({ type: 'RESOLVE_PERIL', combatantId: 'hero', choice: 'survive', costText: 'limps' });
    expect(e.view().order.find((c) => c.id === 'hero')!.alertTags).toBeUndefined();
  });
});
