// @vitest-environment jsdom
// The runner at a glance and from the keyboard: what it shows, and which keys send which GM events.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EncounterDetail, LogEntry } from '../../../core/api/contract.ts';
import type { EncounterView } from '../../../core/encounter/types.ts';
import type { RulesetId } from '../../../core/rulesets/types.ts';
import type { EncounterState } from '../lib/encounter.svelte.ts';
import { loadRulesetUi } from '../rulesets/registry.ts';
import EncounterRunner from './EncounterRunner.svelte';

afterEach(cleanup);

const combatant = (id: string, name: string, side: 'party' | 'gm', slot: number | null, status: EncounterView['order'][number]['status']) => ({
  id, name, side, sideLabel: side === 'party' ? 'Party' : 'GM', status, slot, health: { label: 'LP', current: 8, max: 8 }, tags: [],
});

function detail(view: Partial<EncounterView>, rulesetId: RulesetId = 'enigma'): EncounterDetail {
  return {
    encounter: { id: 'e1', campaignId: 'c1', campaignName: 'Vault', name: 'Ford', phase: 'running', round: 2, eventCount: 9, updatedAt: '', rulesetId },
    view: {
      phase: 'running', round: 2, counters: [{ key: 'escalation', label: 'Escalation', value: 2 }],
      order: [combatant('a', 'Berrik', 'party', 1, 'acted'), combatant('g', 'Goblin 1', 'gm', 2, 'active'), combatant('l', 'Lotty', 'party', 3, 'waiting')],
      activeId: 'g', prompt: null, allowed: ['END_TURN', 'REMOVE_COMBATANT', 'END_COMBAT'], ...view,
    },
    conditionNames: [],
    log: [{ seq: 1, round: 2, kind: 'round', text: 'Round 2 begins. Escalation 2.' }],
    logComplete: true,
    canUndo: true, canRedo: false, undoLabel: 'Berrik ends the turn.', redoLabel: null,
  };
}

function fakeEncounter(d: EncounterDetail) {
  return { id: 'e1', detail: d, busy: false, act: vi.fn(async () => {}), undo: vi.fn(async () => {}), redo: vi.fn(async () => {}) } as unknown as EncounterState & { act: ReturnType<typeof vi.fn> };
}

/** The runner as the encounter screen draws it: with what the encounter's ruleset adds. */
async function showRunner(encounter: EncounterState) {
  return render(EncounterRunner, { encounter, ui: await loadRulesetUi(encounter.detail!.encounter.rulesetId) });
}

describe('encounter runner', () => {
  it('shows the round, Escalation and the active combatant in the header', async () => {
    await showRunner(fakeEncounter(detail({})));
    expect(screen.getByTestId('counter-round').getAttribute('aria-label')).toBe('Round 2');
    expect(screen.getByTestId('counter-escalation').getAttribute('aria-label')).toBe('Escalation 2');
    expect(screen.getByTestId('active-name').textContent).toBe('Goblin 1');
    expect(screen.getByRole('listitem', { current: 'step' }).textContent).toContain('Goblin 1');
    expect(screen.getByRole('button', { name: 'Undo: Berrik ends the turn.' })).toBeTruthy();
  });

  it('draws a row’s marks as chips with their tooltips, its alert tags as alerts, and the actions left in words', async () => {
    const injured = { ...combatant('a', 'Berrik', 'party', 1, 'active'), tags: ['Mortal Peril', 'cannot act'], alertTags: ['Mortal Peril'], marks: [
      { id: 'i1', text: 'Sprained Ankle · 1 rest', title: 'speed injury' },
      { id: 'i2', text: 'Cracked Ribs · 3 rests', title: 'endure injury' },
    ] };
    await showRunner(fakeEncounter(detail({ order: [injured], activeId: 'a', turn: { actionsLeft: 1, actionsPerTurn: 2 } })));
    const marks = [...document.querySelectorAll('.tag.mark')].map((t) => [t.textContent, t.getAttribute('title')]);
    expect(marks).toEqual([['Sprained Ankle · 1 rest', 'speed injury'], ['Cracked Ribs · 3 rests', 'endure injury']]);
    expect([...document.querySelectorAll('.tag.alert')].map((t) => t.textContent)).toEqual(['Mortal Peril']);
    expect(screen.getByTestId('counter-actions').getAttribute('aria-label')).toBe('1 action left');
  });

  it('shows the active one’s temporary HP beside its HP on the Now card', async () => {
    const shielded = { ...combatant('a', 'Ada', 'party', 1, 'active'), health: { label: 'HP', current: 7, max: 10, temp: 5 } };
    await showRunner(fakeEncounter(detail({ order: [shielded], activeId: 'a' }, 'any-system')));
    expect(screen.getByTestId('active-name').parentElement!.textContent).toContain('Party · HP 7/10 +5 temp');
  });

  it('ends the turn with N, but not while typing in a field', async () => {
    const encounter = fakeEncounter(detail({}));
    await showRunner(encounter);
    await fireEvent.keyDown(window, { key: 'n' });
    expect(encounter.act).toHaveBeenCalledWith({ type: 'END_TURN' });
    const input = document.body.appendChild(document.createElement('input'));
    await fireEvent.keyDown(input, { key: 'n' });
    expect(encounter.act).toHaveBeenCalledTimes(1);
  });

  it('answers a GM-slot prompt with a number key, and offers no next turn meanwhile', async () => {
    const prompt = { kind: 'chooseNpc', text: 'GM slot 2: which enemy acts next?', answer: 'CHOOSE_NPC', choices: [{ id: 'g1', label: 'Goblin 1', answer: { combatantId: 'g1' } }, { id: 'g2', label: 'Goblin 2', answer: { combatantId: 'g2' } }] };
    const encounter = fakeEncounter(detail({ prompt, activeId: null, allowed: ['CHOOSE_NPC', 'REMOVE_COMBATANT'] }));
    await showRunner(encounter);
    expect(screen.queryByRole('button', { name: 'Next turn' })).toBeNull();
    await fireEvent.keyDown(window, { key: 'n' });
    expect(encounter.act).not.toHaveBeenCalled();
    await fireEvent.keyDown(window, { key: '2' });
    expect(encounter.act).toHaveBeenCalledWith({ type: 'CHOOSE_NPC', combatantId: 'g2' });
    await fireEvent.click(screen.getByRole('button', { name: 'Send Goblin 1' }));
    expect(encounter.act).toHaveBeenLastCalledWith({ type: 'CHOOSE_NPC', combatantId: 'g1' });
  });

  it('draws what the ruleset adds: Enigma’s unplaced wording, ? mark and ± on each row; the generic ones without', async () => {
    const unplaced = { ...combatant('u', 'Mira', 'party', null, 'unplaced'), plannedSlot: null };
    const view = { order: [combatant('g', 'Goblin 1', 'gm', 1, 'active'), unplaced], allowed: ['END_TURN', 'APPLY_DAMAGE'] };
    await showRunner(fakeEncounter(detail(view)));
    expect(screen.getByRole('heading', { name: 'Still to place this round — ? = the GM picks at a GM slot' })).toBeTruthy();
    expect(screen.getByTitle('The GM picks when a GM slot comes up').textContent).toBe('?');
    expect(screen.getByRole('button', { name: 'Damage or heal Mira' }).textContent).toBe('±');
    cleanup();
    await showRunner(fakeEncounter(detail(view, 'teams')));
    expect(screen.getByRole('heading', { name: 'Yet to act this round' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: /^Mira/ }).querySelector('.num')!.textContent).toBe('·');
    expect(screen.queryByRole('button', { name: 'Damage or heal Mira' })).toBeNull();
  });

  it('leaves the keys to a prompt that owns them (Mortal Peril), but not to a generic prompt', async () => {
    const peril = { kind: 'mortalPeril', text: 'Berrik is at 0 LP: Mortal Peril. Sacrifice or Survive?', answer: 'RESOLVE_PERIL', subjectId: 'a', choices: [{ id: 'sacrifice', label: 'Sacrifice', answer: { combatantId: 'a', choice: 'sacrifice' } }, { id: 'survive', label: 'Survive', answer: { combatantId: 'a', choice: 'survive' } }], details: { npc: false, survivalNumber: 1, extendable: [] } };
    const allowed = ['END_TURN', 'RESOLVE_PERIL'];
    const encounter = fakeEncounter(detail({ prompt: peril, allowed }));
    await showRunner(encounter);
    expect(screen.getByRole('alertdialog', { name: peril.text })).toBeTruthy();
    await fireEvent.keyDown(window, { key: 'n' });
    await fireEvent.keyDown(window, { key: '2' });
    expect(encounter.act).not.toHaveBeenCalled();
    cleanup();
    const generic = fakeEncounter(detail({ prompt: peril, allowed }, 'teams'));
    await showRunner(generic);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await fireEvent.keyDown(window, { key: '2' });
    expect(generic.act).toHaveBeenCalledWith({ type: 'RESOLVE_PERIL', combatantId: 'a', choice: 'survive' });
  });

  it('keeps the newest 100 lines of a long log, the rest one link away', async () => {
    const log: LogEntry[] = Array.from({ length: 250 }, (_, i) => ({ seq: i + 1, round: 5, kind: 'turn', text: `Line ${i + 1}.` }));
    await showRunner(fakeEncounter({ ...detail({}), log }));
    const lines = within(screen.getByRole('list', { name: 'Encounter log' })).getAllByRole('listitem');
    expect(lines).toHaveLength(100);
    expect(lines[0]!.textContent).toContain('Line 151.');
    expect(lines.at(-1)!.textContent).toContain('Line 250.');
    expect(screen.getByRole('link', { name: 'Full log, summary and export ›' })).toBeTruthy();
  });

  it('gives every control an accessible name', async () => {
    await showRunner(fakeEncounter(detail({})));
    for (const button of screen.getAllByRole('button')) {
      expect((button.getAttribute('aria-label') ?? button.textContent ?? '').trim().length, button.outerHTML).toBeGreaterThan(0);
    }
  });
});
