// The combat events Teams' rules take, as TypeScript types (the zod schema is in events.ts), and their closed lists.
import type { Attribute, DamageType, ItemSlot, Proficiency, Roll, Weapon } from './rules.ts';

/** Dice and bonus of a test the chapter does not spell out (Resuscitate, Short Task, Resist...): set by the GM. */
export interface TestInput {
  dice?: number[] | null;
  bonus?: number | null;
}

export type ActionKind = 'brandish' | 'interact' | 'move' | 'sprint' | 'standUp' | 'seekCover' | 'guard' | 'wait' | 'ready' | 'command' | 'resuscitate' | 'shortTask' | 'other';
export type FreeActionKind = 'dropItem' | 'dropProne' | 'step';
export type ReactionKind = 'dodge' | 'fortify' | 'resist';

export type CombatEvent =
  | {
      type: 'ATTACK'; attackerId: string; targetId: string; attribute: Attribute; proficiency: Proficiency;
      via?: 'turn' | 'command' | 'readied'; weapon?: Weapon | null; sneak?: boolean; flanking?: boolean; advantage?: number;
      nearbyIds?: string[]; interceptorIds?: string[]; declaredParry?: ItemSlot | null;
      testRoll?: Roll | null; luckRoll?: Roll | null; strayRoll?: Roll | null; note?: string;
    }
  | ({
      type: 'ACTION'; kind: ActionKind; actorId?: string | null; targetId?: string | null; name?: string; cost?: number;
      hold?: HoldChoice | null; trigger?: string; readied?: string; difficulty?: number | null; testRoll?: Roll | null; luckRoll?: Roll | null; note?: string;
    } & TestInput)
  | {
      type: 'KILLING_STRIKE'; targetId: string; attribute: Attribute; proficiency: Proficiency; weapon?: Weapon | null;
      testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null;
    }
  | { type: 'FREE_ACTION'; kind: FreeActionKind; item?: ItemSlot | null; note?: string }
  | { type: 'FIRE_READIED'; combatantId: string; note?: string }
  | { type: 'EXTENDED'; decision: ExtendedDecision; testRoll?: Roll | null; luckRoll?: Roll | null; sneakRoll?: Roll | null }
  | { type: 'OPENING_ATTACK'; decision: 'waive' }
  | DefendEvent
  | ({
      type: 'REACTION_TEST'; reactorId: string; reaction: ReactionKind; difficulty: number; against: string;
      testRoll?: Roll | null; luckRoll?: Roll | null;
    } & TestInput)
  | { type: 'CONSCIOUSNESS'; decision: ConsciousnessDecision; testRoll?: Roll | null; luckRoll?: Roll | null }
  | { type: 'LUCK_TEST'; luckRoll?: Roll | null }
  | { type: 'APPLY_DAMAGE'; targetId: string; amount: number; source: string; damageType?: DamageType | null; nonlethal?: boolean }
  | { type: 'HEAL'; targetId: string; pool: HealedPool; amount: number; source: string }
  | { type: 'OVERRIDE'; targetId: string; field: OverrideField; value: number; note: string };

/** The answers to the defence window (§2.4 step 7): a parry names the item, an interception the ally. */
export const DEFENCES = ['none', 'block', 'parry', 'dodge', 'intercept'] as const;
export type Defence = (typeof DEFENCES)[number];
export interface DefendEvent {
  type: 'DEFEND';
  defence: Defence;
  /** The item a parry uses. */
  slot?: ItemSlot | null;
  /** The ally who intercepts. */
  interceptorId?: string | null;
  testRoll?: Roll | null;
  luckRoll?: Roll | null;
}
export const EXTENDED_DECISIONS = ['continue', 'abandon'] as const;
export type ExtendedDecision = (typeof EXTENDED_DECISIONS)[number];
export const CONSCIOUSNESS_DECISIONS = ['fortify', 'unconscious'] as const;
export type ConsciousnessDecision = (typeof CONSCIOUSNESS_DECISIONS)[number];

/** What Brandish leaves in the hands (§2.3: "choose what items you are holding in your hands"). */
export const HOLD_CHOICES = ['weaponAndShield', 'weapon', 'shield', 'nothing'] as const;
export type HoldChoice = (typeof HOLD_CHOICES)[number];
export const HEALED_POOLS = ['endurance', 'health'] as const;
export type HealedPool = (typeof HEALED_POOLS)[number];

export const OVERRIDE_FIELDS = ['endurance', 'health', 'stamina', 'focus', 'actionsLeft', 'cheatDeathDifficulty', 'weaponDurability', 'shieldDurability', 'conscious', 'dead', 'prone', 'reaction'] as const;
export type OverrideField = (typeof OVERRIDE_FIELDS)[number];
