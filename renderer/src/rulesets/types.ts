// What a ruleset may add to the encounter screens (issue 29). The runner and the prepare screen never name a ruleset:
// get what `loadRulesetUi(id)` (registry.ts) gives and draw the generic screen wherever the ruleset adds nothing. A ruleset that
// adds something has a folder `renderer/src/rulesets/<id>/` whose `index.ts` exports `ui: RulesetUi`; a ruleset with
// no folder gets the generic screens, without a line here or in the registry.
import type { Component } from 'svelte';
import type { EncounterPrompt } from '../../../core/encounter/types.ts';
import type { EncounterState } from '../lib/encounter.svelte.ts';
import type { PlainKey } from '../lib/shortcuts.ts';

// A component's exports are optional members: `tsc` reads an imported .svelte file as a component of unknown exports
// (svelte's `*.svelte` module declaration), and only svelte-check sees the real ones. The screens call them with `?.`.

/** An action panel drawn in place of the generic forms (ActionForms), which the runner can open on one form. */
export interface ActionPanelExports {
  /** Opens the panel's form `mode`, its target preset (a row's quick action). */
  open?(mode: string, preset?: { targetId?: string }): void;
}

/** A component drawn for one kind of prompt in place of the generic PromptCard. */
export interface PromptUi {
  component: Component<{ encounter: EncounterState; prompt: EncounterPrompt }>;
  /**
   * True when the component reads its own keys: while it shows, the runner's keys (next turn, a choice's number) do
   * nothing, and only `?` still opens the shortcut sheet.
   */
  ownsKeys?: boolean;
}

/** The grid the runner and the prepare screen draw when the view has one (`view.board` present). */
export interface BoardProps {
  encounter: EncounterState;
  /** The action form open in the runner, as typed so far (a board may place a field's squares). */
  draft?: { type: string; values: Record<string, unknown> } | null;
  /** Sets a field of that form, as if typed. */
  onfield?: (key: string, value: unknown) => void;
}
export interface BoardExports {
  /** What the board reads in the open form (an area's targets, a refusal), shown beside the form's button. */
  draftNote?(): { text: string; refused: boolean } | null;
}

/** A panel of the prepare screen's Order of battle card, in place of the generic list of both sides. */
export interface PrepOrderUi {
  component: Component<{ encounter: EncounterState }>;
  /** The setup events it sends: the prepare screen leaves them out of its generic "Setup" forms. */
  handles: readonly string[];
}

/** A small button on each row of the order of battle that opens the action panel's form on that combatant. */
export interface RowAction {
  /** What the button shows ('±'). */
  text: string;
  /** Its accessible name, from the combatant's name. */
  label(name: string): string;
  /** Its tooltip, with its key. */
  title: string;
  /** The action panel's form it opens, the combatant preset as its target. */
  mode: string;
  /** The event type that must be allowed for the button to show. */
  requires: string;
}

/** How the runner heads the combatants not placed in this round yet, and marks one whose slot is not decided. */
export interface UnplacedWording {
  heading: string;
  /** Added to the heading when one of them has no planned slot. */
  unknownNote: string;
  /** The number column of one with no planned slot, and its tooltip. */
  unknownMark: string;
  unknownTitle: string;
}

export interface RulesetUi {
  actionPanel?: Component<{ encounter: EncounterState }, ActionPanelExports>;
  /** The `?` sheet's lines for the action panel (without one: the keys of the ruleset's action forms). */
  actionKeyLines?: readonly PlainKey[];
  /** Components by prompt kind (`EncounterPrompt.kind`). */
  prompts?: Readonly<Record<string, PromptUi>>;
  board?: Component<BoardProps, BoardExports>;
  prepOrder?: PrepOrderUi;
  rowAction?: RowAction;
  unplaced?: UnplacedWording;
}

/** The wording of a ruleset that adds none of its own. */
export const GENERIC_UNPLACED: UnplacedWording = { heading: 'Yet to act this round', unknownNote: '', unknownMark: '·', unknownTitle: '' };
