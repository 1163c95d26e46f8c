import type { RulesetDefinition } from '../types.ts';
import { teamsEncounter } from './encounter.ts';
import { teamsRecovery } from './ledger.ts';
import { teamsOptions } from './options.ts';
import { teamsSheet } from './sheet.ts';

export const teams: RulesetDefinition = {
  id: 'teams',
  name: 'Teams',
  summary: 'Team initiative, three actions, reactions with stamina and focus, endurance then health, cheating death.',
  sheet: teamsSheet,
  options: teamsOptions,
  encounter: teamsEncounter,
  recovery: teamsRecovery,
};
