import { describe, expect, it } from 'vitest';
import { renameFields } from './upcast.ts';

const renames = { CHOOSE: { id: 'combatantId' }, DEFEND: { id: 'defence', roll: 'testRoll' } };

describe('renameFields', () => {
  it('renames the old fields of the listed event types', () => {
    expect(renameFields({ type: 'CHOOSE', id: 'a' }, renames)).toEqual({ type: 'CHOOSE', combatantId: 'a' });
    expect(renameFields({ type: 'DEFEND', id: 'dodge', roll: 4, luck: 2 }, renames)).toEqual({ type: 'DEFEND', defence: 'dodge', testRoll: 4, luck: 2 });
  });

  it('leaves today’s shape, other types and what is not an event as they are', () => {
    const today = { type: 'CHOOSE', combatantId: 'a' };
    expect(renameFields(today, renames)).toBe(today);
    const other = { type: 'MOVE', id: 'a' };
    expect(renameFields(other, renames)).toBe(other);
    expect(renameFields({ type: 'CHOOSE', id: 'old', combatantId: 'new' }, renames)).toEqual({ type: 'CHOOSE', id: 'old', combatantId: 'new' });
    expect(renameFields(null, renames)).toBeNull();
    expect(renameFields(['CHOOSE'], renames)).toEqual(['CHOOSE']);
    expect(renameFields({ type: 'toString', id: 'a' }, renames)).toEqual({ type: 'toString', id: 'a' });
  });
});
