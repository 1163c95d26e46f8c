// The contract between the campaign ledger (recovery between fights) and a ruleset's recovery rules. The ledger
// is event-sourced like an encounter: each recovery action is a GM event with every die inside it, applied to the
// campaign as it stands (the "world") by pure functions that return the change and the log sentences, or refuse
// with a sentence a GM understands (changing nothing). Storage, undo and redo live in db/ and server/.
import type { z } from 'zod';
import type { GmEvent, RollRequest } from '../encounter/types.ts';
import type { OptionValues } from '../rulesets/options.ts';

/** A refusal a GM can read ("Berrik has already taken two Breathers today."). Nothing was changed. */
export class LedgerRefusal extends Error {
  override name = 'LedgerRefusal';
}

/** True for a ledger refusal or a ruleset's own RecoveryRefusal (each recovery.ts has one with that name). */
export const isRefusal = (error: unknown): error is Error =>
  error instanceof Error && (error.name === 'LedgerRefusal' || error.name === 'RecoveryRefusal');

/** A lasting record kept on the campaign: an injury, a wound, a death or cheat-death mark, a gear record. */
export interface LedgerRecord {
  id: string;
  characterId: string;
  name: string;
  category: string;
  /** The ruleset's full record, exactly as the encounter's consequences wrote it (and recovery updated it). */
  data: Record<string, unknown>;
  /** In-game day it was gained (null for records from before the campaign clock existed). */
  dayGained: number | null;
}

export interface LedgerCharacter {
  id: string;
  name: string;
  role: 'pc' | 'npc';
  /** The character sheet, normalised against the ruleset's sheet schema. */
  sheet: Record<string, unknown>;
  /** The stored condition (characters.state_json): what the last fight and recovery left. `{}` = fresh. */
  state: Record<string, unknown>;
  /** Running records only (not healed), oldest first. */
  records: LedgerRecord[];
}

/** The campaign as recovery sees it. */
export interface CampaignWorld {
  /** The in-game day counter (starts at 1). */
  day: number;
  options: OptionValues;
  /** Party-level values (Enigma: escalation). */
  party: Record<string, unknown>;
  /** Party members (role 'pc'), not archived, in name order. */
  characters: LedgerCharacter[];
}

/** What a recovery event changes. Every part is optional; what is given replaces the stored value whole. */
export interface RecoveryChange {
  /** New stored condition per character (the whole state object). */
  characters?: { id: string; state: Record<string, unknown> }[];
  /** Changed running records: new data (whole), optionally a new name, and `healed: true` when it is gone. */
  records?: { id: string; data: Record<string, unknown>; name?: string; healed?: boolean }[];
  /** The whole new party object. */
  party?: Record<string, unknown>;
  /**
   * Lasting records the event creates (an injury between sessions: a fall during downtime), stored as a fight's
   * consequences are (`Consequences['injuries']`: a category of the ruleset's `records`, its full data). The ledger
   * gives each an id, the entry as its source and the day as the day gained; undoing the entry deletes them.
   */
  newRecords?: NewRecord[];
}

/** A lasting record a recovery event creates on a party member. */
export interface NewRecord {
  characterId: string;
  name: string;
  category: string;
  data: Record<string, unknown>;
}

export interface RecoveryOutcome {
  change: RecoveryChange;
  /** Log sentences, most important first ("Berrik takes a Rest: LP 4 → 9; Sprained ankle 1 rest to go."). */
  log: string[];
}

/**
 * A field of a recovery form. `character` picks a party member; `record` picks one of the running records of the
 * character chosen in the form's `characterId` field (only the given categories, when set).
 */
export interface LedgerField {
  key: string;
  label: string;
  kind: 'character' | 'record' | 'integer' | 'choice' | 'text' | 'flag';
  categories?: readonly string[];
  choices?: readonly { value: string; label: string }[];
  min?: number;
  max?: number;
  default?: string | number | boolean;
  optional?: boolean;
  emptyAs?: 'omit' | 'null';
  help?: string;
}

export interface LedgerForm {
  /** The event type this form sends. Every recovery event names its character in `characterId`. */
  type: string;
  label: string;
  help?: string;
  fields: readonly LedgerField[];
  /**
   * Offered as a whole-party action too ("The whole party takes a Rest"): sent as
   * `{ type: 'PARTY', action: <this event without characterId>, characterIds }`.
   */
  bulk?: boolean;
  /**
   * Acts on a value the whole party shares (Enigma's Escalation): offered once, beside the party's values, not on
   * every card. It still names a party member, as its stored events do (the first one, unless the GM picks another).
   */
  partyWide?: boolean;
}

/** One character's recovery picture for the recovery screen. */
export interface RecoveryCard {
  /** Current numbers: 'LP' '7/12', 'Breathers today' '1/2'. `tone` colours it. */
  stats: { label: string; value: string; tone?: 'ok' | 'warn' | 'bad' }[];
  /** Lasting changes shown as marks: 'Cheat-death difficulty 20', 'Slot lost for good (frostbite)'. */
  marks: string[];
  /** Running records as the GM reads them. */
  records: { id: string; name: string; category: string; status: string; permanent?: boolean }[];
  /** Inventory slots (Cairn-Errant: a grid of 10). */
  slots?: { label: string; kind: 'gear' | 'fatigue' | 'injury' | 'wound' | 'lost' | 'empty' }[];
  /** Why the character cannot act or recover normally ('Dead', 'Out of action: three Wounds'), else null. */
  out?: string | null;
}

export interface RecoveryRules {
  forms: readonly LedgerForm[];
  /** Every recovery event of the ruleset (not the generic clock and PARTY events), validated before the rules see it. */
  eventSchema: z.ZodType<GmEvent>;
  /** The rolls an event needs (the app rolls them or the GM types the faces); empty or absent when none. */
  rollsFor?(world: CampaignWorld, event: GmEvent): RollRequest[];
  /** Applies one recovery event; throws LedgerRefusal (or the ruleset's RecoveryRefusal) to refuse. */
  apply(world: CampaignWorld, event: GmEvent): RecoveryOutcome;
  /** In-game days pass (the campaign clock moved forward by `days`): what that alone changes, or null. */
  daysPassed?(world: CampaignWorld, days: number): RecoveryOutcome | null;
  /** What the recovery screen shows for one party member. */
  card(world: CampaignWorld, characterId: string): RecoveryCard;
  /** Party-level figures (Enigma: Escalation). */
  partyStats?(world: CampaignWorld): { label: string; value: string }[];
  /** Party-level figures the campaign home shows beside the ruleset's name, from the campaign's party values. */
  partyBadges?(party: Record<string, unknown>): PartyBadge[];
}

/** One party-level figure on the campaign home: "{label} {value}", with `title` as its tooltip. */
export interface PartyBadge {
  label: string;
  value: string;
  title: string;
}
