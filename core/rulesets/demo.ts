// What a ruleset's demo campaign is made of (core/rulesets/<id>/demo.ts, the `demo` of its definition). The data
// depends only on these types: the server plays it through the handler table (server/demo/runner.ts).
import type { EncounterView, GmEvent } from '../encounter/types.ts';
import type { OptionValues } from './options.ts';
import type { SheetValues } from './sheet.ts';

/** One demo encounter being played: combatants by name, events appended as the GM's would be. */
export interface DemoFight {
  readonly view: EncounterView;
  /** The combatant id of a name in the order of battle ("Goblin 1"). */
  id(name: string): string;
  /** Appends one GM event; every roll it needs must already be typed in. */
  act(event: GmEvent): void;
}

export interface DemoCharacter {
  name: string;
  sheet: SheetValues;
}

/** One sample campaign: who is in it, the fight of its first session, and what recovery follows. */
export interface RulesetDemo {
  /** Says it is a demo: "Demo — Enigma: Nexus Nights". */
  name: string;
  options?: OptionValues;
  party: DemoCharacter[];
  npcs: (DemoCharacter & { count: number })[];
  session: { title: string; recap: string };
  encounter: string;
  /** Plays the encounter to its end. */
  fight(fight: DemoFight): void;
  /** Ledger actions after the fight, given the party's character ids by name. */
  recovery(party: Record<string, string>): GmEvent[];
}

/** Dice the GM typed in (the demo never leaves a roll to the app). */
export const typed = (...faces: number[]) => ({ faces, source: 'manual' as const });
