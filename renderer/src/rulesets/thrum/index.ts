// What Thrum adds to the encounter screens: its square grid, in the runner and on the prepare screen.
import type { RulesetUi } from '../types.ts';
import Board from './Board.svelte';

export const ui: RulesetUi = { board: Board };
