import { describe, expect, it } from 'vitest';
import { href, parseRoute } from './router.svelte.ts';

describe('hash routes', () => {
  it('round-trips every screen through its link', () => {
    expect(parseRoute(href.campaigns())).toEqual({ name: 'campaigns' });
    expect(parseRoute(href.campaign('c 1'))).toEqual({ name: 'campaign', id: 'c 1' });
    expect(parseRoute(href.newCharacter('c1', 'npc'))).toEqual({ name: 'character', campaignId: 'c1', id: null, role: 'npc' });
    expect(parseRoute(href.character('c1', 'x/y'))).toEqual({ name: 'character', campaignId: 'c1', id: 'x/y', role: 'pc' });
    expect(parseRoute(href.encounter('e1'))).toEqual({ name: 'encounter', id: 'e1' });
    expect(parseRoute(href.backups())).toEqual({ name: 'backups' });
  });

  it('falls back to the campaign list for anything else', () => {
    expect(parseRoute('')).toEqual({ name: 'campaigns' });
    expect(parseRoute('#/nowhere/at/all')).toEqual({ name: 'campaigns' });
    expect(parseRoute('#/encounter')).toEqual({ name: 'campaigns' });
  });
});
