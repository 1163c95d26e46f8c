// @vitest-environment jsdom
// A recovery form drawn from data: what it sends for one character and for the whole party, and the record field
// that follows the chosen character.
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecoveryDetail } from '../../../core/api/contract.ts';
import { enigmaRecovery } from '../../../core/rulesets/enigma/ledger.ts';
import RecoveryForm from './RecoveryForm.svelte';

afterEach(cleanup);

const card = (records: RecoveryDetail['characters'][number]['card']['records']) => ({ stats: [], marks: [], records });
const characters: RecoveryDetail['characters'] = [
  { id: 'b', name: 'Berrik', card: card([{ id: 'r1', name: 'Sprained Ankle', category: 'speed', status: '2 rests to go' }]) },
  { id: 'l', name: 'Lotty', card: card([]) },
  { id: 'm', name: 'Mira', card: { ...card([]), out: 'Dead (Sacrifice)' } },
];
const form = (type: string) => enigmaRecovery.forms.find((f) => f.type === type)!;

describe('recovery form', () => {
  it('sends the whole-party action with every party member named (the rules skip whoever cannot)', async () => {
    const onsend = vi.fn();
    render(RecoveryForm, { form: form('REST'), characters, characterId: null, onsend, oncancel: () => {} });
    expect(screen.queryByRole('combobox', { name: 'Party member' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Rest' }));
    expect(onsend).toHaveBeenCalledWith({ type: 'PARTY', action: { type: 'REST' }, characterIds: ['b', 'l', 'm'] });
  });

  it('offers the chosen character\'s records and sends the one picked', async () => {
    const onsend = vi.fn();
    render(RecoveryForm, { form: form('STITCHER_TREAT'), characters, characterId: 'b', onsend, oncancel: () => {} });
    expect(screen.getByRole('option', { name: 'Sprained Ankle — 2 rests to go' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Stitcher treatment' }));
    expect(onsend).toHaveBeenCalledWith(expect.objectContaining({ type: 'STITCHER_TREAT', characterId: 'b', recordId: 'r1' }));
  });

  it('says so and sends nothing when the character has no record to treat', async () => {
    const onsend = vi.fn();
    render(RecoveryForm, { form: form('STITCHER_TREAT'), characters, characterId: 'l', onsend, oncancel: () => {} });
    expect(screen.getByText('Lotty has nothing of that kind to treat.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Stitcher treatment' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
