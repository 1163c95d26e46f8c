import type { RulesetDefinition } from '../types.ts';
import { enigmaEncounter } from './encounter.ts';
import { enigmaSeveralTargets } from './forms.ts';
import { enigmaRecovery } from './ledger.ts';
import { enigmaOptions } from './options.ts';
import { enigmaSheet } from './sheet.ts';

export const enigma: RulesetDefinition = {
  id: 'enigma',
  name: 'Enigma',
  summary: 'Alternating order of battle, two actions, reaction debt, Escalation, Mortal Peril and injuries.',
  sheet: enigmaSheet,
  options: enigmaOptions,
  encounter: { ...enigmaEncounter, severalTargets: enigmaSeveralTargets },
  recovery: enigmaRecovery,
};
