// @vitest-environment jsdom
// The rulings panel's summary speaks of the ruleset's text only when it has one: a ruleset whose every ruling is the
// app's own (a game the app does not model) is not said to have gaps in a text.
import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, expect, it, vi } from 'vitest';
import type { CampaignDetail, RulesetInfo } from '../../../core/api/contract.ts';
import RulingsPanel from './RulingsPanel.svelte';

vi.mock('../lib/api.ts', () => ({ send: vi.fn(async () => null), onChanged: () => () => {} }));
afterEach(cleanup);

const option = (key: string, origin?: 'app') => ({
  key, ruling: `R-${key}`, label: key, description: `What ${key} does.`, kind: 'flag', default: true, ...(origin ? { origin } : {}),
});
const rulesetWith = (options: ReturnType<typeof option>[]) => ({ id: 'x', name: 'Xanadu', summary: '', options }) as unknown as RulesetInfo;
const campaign = { id: 'c1', options: {} } as unknown as CampaignDetail;

it('says the rulings fill gaps in the rule text, from the digest', () => {
  render(RulingsPanel, { campaign, ruleset: rulesetWith([option('a'), option('b', 'app')]) });
  expect(screen.getByText(/2 named rulings for gaps in the Xanadu text; defaults from the rules digest/)).toBeTruthy();
});

it('says the rulings are the app\'s own when every one is', () => {
  render(RulingsPanel, { campaign, ruleset: rulesetWith([option('a', 'app'), option('b', 'app')]) });
  expect(screen.getByText(/2 named rulings, each the app's own reading of how the table plays/)).toBeTruthy();
  expect(screen.queryByText(/gaps in the Xanadu text/)).toBeNull();
});
