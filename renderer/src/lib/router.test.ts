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

  it('opens the campaign list at the bare address', () => {
    expect(parseRoute('')).toEqual({ name: 'campaigns' });
    expect(parseRoute('#')).toEqual({ name: 'campaigns' });
    expect(parseRoute('#/')).toEqual({ name: 'campaigns' });
  });

  it('leads an address that names no screen to "no such page"', () => {
    expect(parseRoute('#/nowhere/at/all')).toEqual({ name: 'notFound' });
    expect(parseRoute('#/encounter')).toEqual({ name: 'notFound' });
  });

  it('leads a malformed %-escape to "no such page" instead of throwing URIError', () => {
    expect(parseRoute('#/%E0%A4%A')).toEqual({ name: 'notFound' });
    expect(parseRoute('#/campaign/%E0%A4%A')).toEqual({ name: 'notFound' });
    expect(parseRoute('#/encounter/%')).toEqual({ name: 'notFound' });
  });
});
