// Cairn-Errant's intents: how a declared action is classified quick or full and described (RULES.md §4.2 step 2).
import { lostFastMovement, nameOf, type CairnCombatant, type CairnContext, type Intent, type IntentAction, type Tier } from './rules.ts';

// ---- intents: classification (§4.2 step 2) ----

export const isAttack = (action: IntentAction) => action === 'melee' || action === 'gambit' || action === 'ranged';
export const damages = (intent: Intent) => intent.action === 'melee' || intent.action === 'ranged';

/** An intent as declared, before it is classified. */
export type IntentBase = Omit<Intent, 'tier' | 'tierConfirmed' | 'declared' | 'bandNote'>;

/** Quick = one action; full = a move plus an action, or something slow (§4.2 step 2, R-C6b). */
export function classify(intent: IntentBase, c: CairnCombatant): Tier {
  switch (intent.action) {
    case 'melee': case 'gambit': case 'ranged': case 'other':
      return intent.move === 'none' ? 'quick' : 'full';
    case 'retreat':
      // Running away is movement: without fast movement it is never a quick turn (R-C6b).
      return intent.fromClose || lostFastMovement(c) ? 'full' : 'quick';
    case 'move':
      return intent.bands === 2 || lostFastMovement(c) ? 'full' : 'quick';
    case 'spell':
      return intent.fast ? 'quick' : 'full';
  }
}

export function describeIntent(ctx: CairnContext, intent: Intent): string {
  const target = intent.targetId ? nameOf(ctx, intent.targetId) : '';
  const weapon = intent.weapon === 'main' ? '' : intent.weapon === 'improvised' ? `, improvised d${intent.improvisedSize}` : `, ${intent.weapon === 'dual' ? 'two weapons' : intent.weapon}`;
  const move = intent.move === 'before' ? 'closes in and ' : '';
  const after = intent.move === 'after' ? ' then moves away' : '';
  const position = intent.position === 'normal' ? '' : ` (${intent.position})`;
  const what = ((): string => {
    switch (intent.action) {
      case 'melee': return `${move}attacks ${target}${weapon}${after}`;
      case 'gambit': return `${move}tries a gambit on ${target}${weapon}${after}`;
      case 'ranged': return `${intent.move === 'before' ? 'moves and ' : ''}shoots ${target}${after}`;
      case 'retreat': return `retreats from ${intent.fromClose ? 'Close' : 'Near or farther'} foes`;
      case 'move': return `moves ${intent.bands} range band${intent.bands === 2 ? 's' : ''}`;
      case 'spell': return intent.fast ? 'casts a fast spell' : 'casts a spell';
      case 'other': return intent.note || 'acts';
    }
  })();
  return `${what}${position}${intent.note && intent.action !== 'other' ? ` — ${intent.note}` : ''}${intent.bandNote ? ` (${intent.bandNote})` : ''}`;
}
