import type { RulesetDefinition } from '../types.ts';
import { cairnErrantOptions } from './options.ts';
import { cairnErrantSheet } from './sheet.ts';

/** Registered with its sheet and rulings; its encounter flow is still to come. */
export const cairnErrant: RulesetDefinition = {
  id: 'cairn-errant',
  name: 'Cairn-Errant',
  summary: 'Block, Dodge & Parry: declared intents, quick and full turns, fatigue, critical damage and wounds.',
  sheet: cairnErrantSheet,
  options: cairnErrantOptions,
};
