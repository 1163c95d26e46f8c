// Enigma's runner panel is its own (renderer/src/rulesets/enigma/ActionPanel.svelte), without generic action forms;
// its damage and healing for one target are declared here as forms for the selection bar (several targets at once),
// matching the APPLY_DAMAGE and HEAL events of encounter.ts.
import type { ActionField, SeveralTargets } from '../../encounter/types.ts';

const target: ActionField = { key: 'targetId', label: 'Who', kind: 'combatant' };
const amount: ActionField = { key: 'amount', label: 'Amount', kind: 'integer', min: 1, max: 99, default: 1 };
const source: ActionField = { key: 'source', label: 'Source', kind: 'text', default: '' };
const healing: ActionField = {
  key: 'kind', label: 'Healing', kind: 'choice',
  choices: [{ value: 'magic', label: 'healing magic' }, { value: 'fix', label: 'a Fix' }, { value: 'other', label: 'other healing' }],
};

export const enigmaSeveralTargets: SeveralTargets = {
  harm: { type: 'APPLY_DAMAGE', label: 'Damage', fields: [target, amount, source] },
  heal: { type: 'HEAL', label: 'Heal', fields: [target, amount, healing, source] },
};
