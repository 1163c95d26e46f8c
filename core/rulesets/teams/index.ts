import type { RulesetDefinition } from '../types.ts';
import { severalTargetsOf } from '../../encounter/several-targets.ts';
import { teamsEncounter } from './encounter.ts';
import { actionForms } from './forms.ts';
import { teamsRecovery } from './ledger.ts';
import { teamsOptions } from './options.ts';
import { teamsSheet } from './sheet.ts';

export const teams: RulesetDefinition = {
  id: 'teams',
  name: 'Teams',
  summary: 'Team initiative, three actions, reactions with stamina and focus, endurance then health, cheating death.',
  sheet: teamsSheet,
  options: teamsOptions,
  encounter: { ...teamsEncounter, severalTargets: severalTargetsOf(actionForms, 'APPLY_DAMAGE', 'HEAL') },
  recovery: teamsRecovery,
};
