// The runner's keyboard shortcuts, in one table: the key handlers read their keys from here and the shortcut sheet
// (`?`, components/ShortcutSheet.svelte) lists the same entries, so the two cannot disagree (issue 28).
import { modKey } from './encounter.svelte.ts';
import { NUMBER_WAIT_MS } from './number-keys.ts';

/** One line of the sheet: the keys as printed and what they do. */
export interface KeyLine {
  keys: string;
  does: string;
}

/** A single-key shortcut: `key` is what the handler compares with `KeyboardEvent.key` (lower case). */
export interface PlainKey extends KeyLine {
  key: string;
}

/** The runner's own single keys, whatever the ruleset. */
export const RUNNER_KEYS = {
  nextTurn: { key: 'n', keys: 'N', does: 'Next turn' },
  addCondition: { key: 'x', keys: 'X', does: 'Put a condition on one or several combatants' },
  // V: a letter no ruleset's actions use (README's table), for the selection bar (components/SelectionBar.svelte).
  tickActing: { key: 'v', keys: 'V', does: 'Tick or untick the acting combatant\'s row, for several targets at once' },
  sheet: { key: '?', keys: '?', does: 'This sheet of shortcuts (Esc closes it)' },
} as const satisfies Record<string, PlainKey>;

/** Whether a key press is this shortcut's key. */
export const pressed = (shortcut: PlainKey, event: KeyboardEvent) => event.key.toLowerCase() === shortcut.key;

/** The lines of the sheet every ruleset shares, in the order a GM meets them. */
export function commonLines(): KeyLine[] {
  const wait = `${(NUMBER_WAIT_MS / 1000).toFixed(1)} s`;
  return [
    RUNNER_KEYS.nextTurn,
    { keys: `${modKey}+Z`, does: 'Undo the last event' },
    { keys: `${modKey}+Shift+Z · ${modKey}+Y`, does: 'Redo' },
    { keys: '1 … 9', does: 'Answer a prompt: the choice of that number' },
    { keys: '1 then 2', does: `Past nine choices: type 12 quickly; a digit alone picks after ${wait}` },
    RUNNER_KEYS.addCondition,
    RUNNER_KEYS.tickActing,
    { keys: 'Shift+click', does: 'On a row\'s box: every row from the last one ticked' },
    RUNNER_KEYS.sheet,
  ];
}

/** Keys inside an open form. */
export function formLines(): KeyLine[] {
  return [
    { keys: 'Enter', does: 'Send the form, from any field' },
    { keys: 'Esc', does: 'Close it; focus goes back' },
    { keys: 'Tab · Shift+Tab', does: 'Next or previous field' },
    { keys: '1 … 9, 1 then 2', does: 'In a list of combatants: the one of that [number]' },
  ];
}

/** Keys on a ruleset's board (Thrum), once it holds focus. */
export const BOARD_LINES: KeyLine[] = [
  { keys: '← ↑ → ↓ · Home · End', does: 'Move between squares' },
  { keys: 'Enter · Space', does: 'Place the open form\'s area on the square' },
  { keys: 'Esc', does: 'Take the placement back; a second Esc closes the form' },
];

/** A ruleset's action forms with a key, as sheet lines: `{ key, label }` from the forms themselves. */
export const formKeyLines = (forms: readonly { shortcut?: string; label: string }[]): PlainKey[] =>
  forms.filter((f) => f.shortcut).map((f) => ({ key: f.shortcut!.toLowerCase(), keys: f.shortcut!.toUpperCase(), does: f.label }));

/** The prepare screen's keys (`?` shows them): undo and redo as in the runner, the rest is Tab and Enter. */
export function prepLines(): { title: string; lines: KeyLine[] }[] {
  return [
    {
      title: 'Prepare',
      lines: [
        { keys: `${modKey}+Z`, does: 'Undo the last change to the roster' },
        { keys: `${modKey}+Shift+Z · ${modKey}+Y`, does: 'Redo' },
        RUNNER_KEYS.sheet,
      ],
    },
    {
      title: 'Adding',
      lines: [
        { keys: 'Enter', does: 'Add: from a template\'s row (its count, a copy\'s name or pool) its copies; from "Or type one in place" the NPC' },
        { keys: 'Enter · Space', does: 'On "Names and …": show or hide a line for each copy' },
      ],
    },
    {
      title: 'Order of battle',
      lines: [
        { keys: 'Tab · Shift+Tab', does: 'Next or previous button or field' },
        { keys: 'Enter on ▲ ▼', does: 'Move the row up or down (dragging a row does the same)' },
        { keys: 'Enter on ✕', does: 'Take the row off the roster' },
      ],
    },
  ];
}
