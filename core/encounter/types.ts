// The contract between the event-sourced kernel and a ruleset's encounter flow (GUIDE §2, RULES.md §6.2).
import type { AnyStateMachine } from 'xstate';
import type { z } from 'zod';
import type { OptionValues } from '../rulesets/options.ts';
import type { SheetValues } from '../rulesets/sheet.ts';

/** A GM event as stored: a type and its payload; every die result travels inside it. */
export interface GmEvent {
  type: string;
  [key: string]: unknown;
}

/** What an encounter machine is started with; stored with the encounter so replays never change. */
export interface EncounterInput {
  options: OptionValues;
  /** Party-level values carried in from the campaign (the ruleset's `carriedFromParty`; Enigma: escalation). */
  carried: Record<string, number | null>;
}

/** A combatant as the prep screen adds it: a copy of the character's sheet at that moment. */
export interface CombatantSeed {
  id: string;
  name: string;
  /** Ruleset-specific side key ('party' | 'gm' for Enigma). */
  side: string;
  characterId: string | null;
  sheet: SheetValues;
  /** Ruleset-specific state carried in from the campaign (current health, running injuries...). */
  carried?: Record<string, unknown>;
}

export type LogKind = 'setup' | 'turn' | 'round' | 'order' | 'removal' | 'escalation' | 'decision' | 'attack' | 'damage' | 'end' | 'condition';

/** One readable line of the encounter log, derived from an event and the states around it. */
export interface LogLine {
  round: number;
  kind: LogKind;
  text: string;
  actorId?: string | null;
  /** R-xx rulings applied by this event. */
  rulings?: string[];
}

export type CombatantStatus = 'active' | 'acted' | 'waiting' | 'unplaced' | 'removed';

export interface CombatantView {
  id: string;
  name: string;
  side: string;
  sideLabel: string;
  status: CombatantStatus;
  /** Position in the order of battle (1-based), null while not placed yet. */
  slot: number | null;
  /** For one not placed yet: the slot it will take when that is already decided. */
  plannedSlot?: number | null;
  /**
   * The main pool: LP 6/10. `rising` for a load that counts up toward its maximum (Thrum's Fatigue Tolerance).
   * `temp`: temporary points on top of it, lost first (5e's temporary HP), drawn after the current ones; absent at 0.
   */
  health?: { label: string; current: number; max: number; rising?: boolean; temp?: number };
  tags: string[];
  /** Secondary numbers shown small on the row (other pools, attributes, loads): 'Stamina 3/4'. */
  stats?: { label: string; value: string }[];
  removedReason?: string;
  /** True for one who died; one who fled, escaped or surrendered is out of the fight but alive (issue 28, point 7). */
  dead?: boolean;
  /**
   * True for one taken out of the fight by harm but not dead (defeated at 0 LP, out after critical damage, out of
   * action by three Wounds): the round summary says it went down. Absent with `dead`, and for one who fled.
   */
  defeated?: boolean;
  /** Lasting marks the runner draws as chips on the row (Enigma's running injuries): each one's words and tooltip. */
  marks?: { id: string; text: string; title: string }[];
  /** The tags drawn as an alert: a question waits about this combatant (Enigma's 'Mortal Peril'). */
  alertTags?: string[];
  /**
   * What only the ruleset's own folders read (Enigma's speed and who it is hidden from...). `unknown` here: the
   * ruleset exports its type (`EnigmaRowDetails`, written with `satisfies`) and a typed reader; the generic screens
   * never read it. Absent when nothing outside the view needs more than the row's stats and tags.
   */
  details?: unknown;
  /** The conditions on it (the kernel's, core/encounter/conditions.ts): absent when it has none. */
  conditions?: { id: string; name: string; remains: string }[];
}

/** The fields of a prompt's answering event a choice sends: a structured value, never a string packed with a colon. */
export type PromptAnswer = Record<string, string | number | boolean | null>;

export interface PromptChoice {
  /** The choice's key among the prompt's choices (lists, tests); not sent. */
  id: string;
  label: string;
  /** What choosing it sends: `{ type: prompt.answer, ...answer }` (promptAnswerEvent). */
  answer: PromptAnswer;
}

/** A blocking question the GM must answer before play goes on. */
export interface EncounterPrompt {
  kind: string;
  text: string;
  /** The event type that answers it. */
  answer: string;
  /** Whom the question is about, when it is about one combatant. */
  subjectId?: string;
  choices: PromptChoice[];
  /**
   * Facts only the ruleset's own folders read (Enigma's `PerilDetails`, Thrum's `ThrumContestDetails`): `unknown`
   * here, read through the ruleset's typed reader; never by the generic screens.
   */
  details?: unknown;
}

/** A square grid for rulesets that fight on one (Thrum): terrain, who stands where, and what cover needs. */
export interface BoardView {
  width: number;
  height: number;
  /** "x,y" → elevation; absent squares are at 0. */
  elevation: Record<string, number>;
  difficult: string[];
  startingArea: string[];
  pieces: { id: string; name: string; side: string; x: number; y: number }[];
  cover?: { characterHeight: number; onLineGivesCover: boolean };
}

/** A roll an event needs: the app rolls it, or the GM types the faces in. `path` locates it in the event. */
export interface RollRequest {
  path: (string | number)[];
  label: string;
  notation: string;
  count: number;
  sides: number;
  /** When the roll mixes dice (d8 + d6 + d12): each die's sides in order, so typed faces can be checked one by one. */
  dice?: number[];
}

export type EncounterPhase = 'setup' | 'running' | 'ended';

export interface EncounterView {
  phase: EncounterPhase;
  round: number;
  /** Big figures for the header (Escalation, ...). */
  /** `countdown`: seconds the runner counts down; `atZero`: the event it sends when the countdown reaches zero. */
  counters: { key: string; label: string; value: number | string; countdown?: number; atZero?: GmEvent }[];
  /** Combatants in order of battle; not-yet-placed ones after the placed ones. */
  order: CombatantView[];
  /** Combatants not in the order (removed, or not placed). */
  activeId: string | null;
  /** The active combatant's budget this turn. */
  turn?: { actionsLeft: number; actionsPerTurn: number } | null;
  prompt: EncounterPrompt | null;
  /** Event types the GM may send now (the runner enables its controls from this). */
  allowed: string[];
  /** The grid, for rulesets that use one (null: none yet; absent: the ruleset has no grid). */
  board?: BoardView | null;
  /** Small reference notes beside the fight (Enigma: the spotlight order, R-E10). */
  aside?: { title: string; text: string }[];
  /** Setup facts the prep screen needs. */
  setup?: { partyOrder: string[]; gmOrder: string[] | null; firstSide: string; sides: { key: string; label: string }[] };
  outcome?: string;
}

/**
 * The part of a view a replay needs to follow each combatant from one event to the next (the export summary): the
 * same phase, round and order as `view` gives, and the event type that answers the prompt waiting now.
 */
export interface EncounterRoster {
  phase: EncounterPhase;
  round: number;
  /** Exactly `view(snapshot).order`. */
  order: CombatantView[];
  /** `view(snapshot).prompt?.answer`, or null when no prompt waits. */
  awaiting: string | null;
}

export interface EncounterRules {
  machine: AnyStateMachine;
  /** Every GM event the ruleset accepts, validated before the rules see it. */
  eventSchema: z.ZodType<GmEvent>;
  /** Sides of this ruleset, for the prep screen. */
  sides: readonly { key: string; label: string }[];
  /** A sentence a GM understands when the rules refuse the event now; null when allowed. */
  refusal(snapshot: EncounterSnapshot, event: GmEvent): string | null;
  describe(event: GmEvent, before: EncounterSnapshot, after: EncounterSnapshot): LogLine[];
  view(snapshot: EncounterSnapshot): EncounterView;
  /**
   * Optional: `view` cut down to what a replay of every event needs (EncounterRoster), for rulesets whose full view
   * costs much more (counters, allowed events, asides). It must agree with `view` on every snapshot; without it the
   * replay reads `view`.
   */
  roster?(snapshot: EncounterSnapshot): EncounterRoster;
  /** The rolls an event needs in this state (empty when it needs none). */
  rollsFor?(snapshot: EncounterSnapshot, event: GmEvent): RollRequest[];
  /** What the fight leaves on the campaign so far (RULES.md §6.5). */
  consequences?(snapshot: EncounterSnapshot): Consequences;
  /** Forms for the runner's action panel, one per GM event a person enters by hand. */
  actionForms?: readonly ActionForm[];
  /** The ruleset's harm and healing for one target, for several targets at once (see SeveralTargets). */
  severalTargets?: SeveralTargets;
  /** The ruleset's own condition names, offered as suggestions when the GM puts a condition on (free text too). */
  conditionNames?: readonly string[];
  /**
   * The encounter's `carried` input from the campaign's party values (what earlier fights' `Consequences.party` and
   * the ledger left there), read when the encounter is created. Absent: the fight carries nothing in. Enigma: the
   * party's Escalation, which round 1 starts at (R-E20).
   */
  carriedFromParty?(party: Record<string, unknown>): EncounterInput['carried'];
  /**
   * Its late arrival (ADD_LATE_COMBATANT) takes a typed initiative total as `initiative` (Any system): the late-arrival
   * form offers one, left empty to have it rolled. Absent: a late arrival is placed as the ruleset places it.
   */
  lateInitiative?: boolean;
  /** The `carried` part of a seed, from a character's stored condition and running injuries. */
  carriedIn?(state: Record<string, unknown>, injuries: Record<string, unknown>[]): Record<string, unknown>;
  /**
   * Optional: the `carried` part of a seed made from an NPC template, from the campaign's party values (what earlier
   * fights' `Consequences.party` left there). Without it an NPC template starts fresh every fight. Factions: NPCs
   * whose template passed a morale check start immune "for the remainder of the stretch" (R-F8).
   */
  npcCarriedIn?(party: Record<string, unknown>, templateId: string): Record<string, unknown>;
  /**
   * The version of the machine's context shape (absent: 1). Stored snapshots carry the version they were saved
   * under; one saved under another is not resumed from but replayed from the events and replaced. Raise it with
   * every change to what the machine's context holds (docs/rulesets/adding-a-ruleset.md).
   */
  rulesVersion?: number;
  /**
   * Optional: a stored or imported event of an older shape, rewritten into today's before `eventSchema` reads it
   * (a renamed field, a packed choice unpacked). It gets the raw JSON, never trusts it, and returns anything else
   * unchanged; new events are stored in today's shape only.
   */
  upcast?(stored: unknown): unknown;
  /** What the export's per-round summary counts as this ruleset's health track (default: damage to health alone). */
  summary?: SummaryTrack;
}

/**
 * A ruleset's health track for the export summary. `health.current` always counts; `pools` are stats of the view
 * that take the same harm (Teams' damage comes off Endurance before health). `loads`: the track rises with harm
 * (Thrum's Fatigue and Stress Loads). `down`: the tags that mean out of the fight, when the ruleset's words are not
 * the common ones (dead, dying, unconscious, incapacitated, defeated, out of action).
 */
export interface SummaryTrack {
  measure: 'damage' | 'loads';
  pools: readonly string[];
  down?: RegExp;
}

/**
 * A form the runner can draw for one GM event, so a ruleset gets its action panel from data (like the character
 * editor from the sheet schema). Rolls are not fields: the app rolls them, or the GM types them in (RollRequest).
 */
export interface ActionField {
  /** The event field the value goes into. */
  key: string;
  label: string;
  kind: 'combatant' | 'combatants' | 'integer' | 'choice' | 'text' | 'flag';
  /**
   * For combatant fields: whom to offer (the active one, everyone else, the active one's foes or allies, or those
   * not placed in the order yet: the rows the view marks `unplaced`, e.g. still without an initiative).
   */
  who?: 'any' | 'active' | 'notActive' | 'foes' | 'allies' | 'unplaced';
  /** For combatant fields: preselect the first one not placed in the order yet (else the first offered). */
  preferUnplaced?: boolean;
  /** For combatant fields: offer only this side's combatants (a side key of the ruleset, e.g. its party side). */
  side?: string;
  /** For combatant fields: preselect the active combatant. */
  defaultActive?: boolean;
  choices?: readonly { value: string; label: string }[];
  min?: number;
  max?: number;
  default?: string | number | boolean;
  /** Left out of the event when empty (or sent as null with `emptyAs: 'null'`). */
  optional?: boolean;
  emptyAs?: 'omit' | 'null';
  /** For `combatants`: send objects `{ [wrap]: id }` instead of bare ids (e.g. `targets: [{ targetId }]`). */
  wrap?: string;
  /** For `combatants`: start with everyone offered ticked (default) or nobody. */
  initial?: 'all' | 'none';
  help?: string;
}

export interface ActionForm {
  /** The event type this form sends. */
  type: string;
  label: string;
  /** A single letter; shown in the tooltip. */
  shortcut?: string;
  /** `setup`: offered on the prep screen only (teams, factions, sides...), hidden from the runner. */
  phase?: 'setup';
  /**
   * Shown in the runner only while its event is allowed, instead of greyed out the rest of the fight: a form of one
   * stage (rolling initiative before round 1) that would otherwise sit on the panel all fight.
   */
  onlyWhenAllowed?: boolean;
  help?: string;
  fields: readonly ActionField[];
}

export interface Consequences {
  /** Lasting harm gained in this encounter, each with a key stable within the encounter. */
  injuries: { key: string; characterId: string; name: string; category: string; data: Record<string, unknown> }[];
  /** Once the encounter has ended: each character's condition to carry onto the campaign; null before. */
  carry: { characterId: string; state: Record<string, unknown> }[] | null;
  /** Once ended: party-level values for the campaign (Enigma: escalation); null before. */
  party: Record<string, unknown> | null;
}

/** The part of an XState snapshot the rules read. */
export interface EncounterSnapshot {
  value: unknown;
  context: unknown;
  status: string;
  matches(value: unknown): boolean;
  can(event: GmEvent): boolean;
}

/**
 * Several targets at once (issue 28 point 4): the ruleset's harm (damage; Thrum's Load) and healing for one target,
 * each a form whose combatant field is the target. The runner's selection bar shows the other fields once and sends
 * the form's event for each selected combatant, as one BATCH. `heal` is left out by a ruleset with no healing in the
 * fight.
 */
export interface SeveralTargets {
  harm: ActionForm;
  heal?: ActionForm;
}
