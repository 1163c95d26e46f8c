// Enigma's action panel buttons with their keys and the event each needs allowed: the panel draws its buttons and
// reads its shortcuts from this table, and the runner's shortcut sheet lists the same entries.
import type { PlainKey } from '../../lib/shortcuts.ts';

export type Mode = 'move' | 'attack' | 'hide' | 'notice' | 'item' | 'power' | 'check' | 'reaction' | 'damage' | 'escalation' | 'override' | 'late';

export interface EnigmaAction {
  mode: Mode;
  text: string;
  /** The key that opens its form ('' for none), as printed. */
  key: string;
  /** The event type that must be allowed for the button to be enabled. */
  requires: string;
}

export const ENIGMA_ACTIONS: readonly EnigmaAction[] = [
  { mode: 'move', text: 'Move', key: 'M', requires: 'MOVE' },
  { mode: 'attack', text: 'Attack', key: 'A', requires: 'ATTACK' },
  { mode: 'hide', text: 'Hide', key: 'H', requires: 'HIDE' },
  { mode: 'notice', text: 'Notice', key: 'O', requires: 'NOTICE' },
  { mode: 'item', text: 'Use item', key: 'I', requires: 'USE_ITEM' },
  { mode: 'power', text: 'Power', key: 'P', requires: 'USE_POWER' },
  { mode: 'check', text: 'Check', key: 'C', requires: 'CHECK' },
  { mode: 'reaction', text: 'Reaction', key: 'R', requires: 'USE_REACTION' },
  { mode: 'damage', text: 'Damage / heal', key: 'D', requires: 'APPLY_DAMAGE' },
  { mode: 'escalation', text: 'Escalation +', key: '', requires: 'RAISE_ESCALATION' },
  { mode: 'late', text: 'Late arrival', key: '', requires: 'ADD_LATE_COMBATANT' },
  { mode: 'override', text: 'Override', key: '', requires: 'OVERRIDE' },
];

/** The actions with a key, as lines of the shortcut sheet. */
export const ENIGMA_KEY_LINES: PlainKey[] = ENIGMA_ACTIONS.filter((a) => a.key).map((a) => ({ key: a.key.toLowerCase(), keys: a.key, does: a.text }));
