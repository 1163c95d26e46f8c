// Conditions with durations through the real handlers on a real SQLite file (issue 28 point 3): put on, counted down
// and expired by the app's own events, undone and redone like any event, after a restart too, kept in a stored
// snapshot, and written in the Markdown, HTML (escaped) and JSON exports.
import { describe, expect, it } from 'vitest';
import type { HandlerResults } from '../core/api/contract.ts';
import { SNAPSHOT_EVERY } from '../db/encounters.ts';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused } = t;
type Detail = HandlerResults['encounters:get'];

/** Ash against two goblins (Enigma), started: Ash acts first. */
async function fight() {
  const campaign = await ok('campaigns:create', { name: 'Conditions', rulesetId: 'enigma' });
  const ash = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet: {} });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Crossing' });
  const added = await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [ash.id], npcs: [{ templateId: goblin.id, count: 2 }] });
  const goblins = added.view.order.filter((c) => c.side === 'gm').map((c) => c.id);
  await ok('encounters:append', { id: encounter.id, event: { type: 'SET_GM_ORDER', ids: goblins } });
  await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
  const send = (event: Record<string, unknown>) => ok('encounters:append', { id: encounter.id, event });
  return { id: encounter.id, campaignId: campaign.id, goblins, send };
}

const on = (d: Detail, id: string) => (d.view.order.find((c) => c.id === id)?.conditions ?? []).map((c) => `${c.name}: ${c.remains}`);

describe('conditions through the handlers', () => {
  it('put on two goblins, counted down, expired, undone after a restart and redone', async () => {
    const { id, goblins, send } = await fight();
    let d = await send({ type: 'CONDITION_ADD', targetIds: goblins, name: 'Stunned', duration: { kind: 'rounds', rounds: 1 } });
    expect(on(d, goblins[0]!)).toEqual(['Stunned: 1 round left']);
    expect(on(d, goblins[1]!)).toEqual(['Stunned: 1 round left']);
    expect(d.log.at(-1)!.text).toBe("The GM puts Stunned on Goblin 1 and Goblin 2, for 1 round (counted from Ash's turn).");
    for (let i = 0; i < 3; i++) d = await send({ type: 'END_TURN' }); // Goblin 1, Goblin 2, then Ash in round 2
    expect(d.view.round).toBe(2);
    expect(on(d, goblins[0]!)).toEqual([]);
    expect(d.log.map((l) => l.text)).toEqual(expect.arrayContaining(['Stunned on Goblin 1 ends after 1 round.', 'Stunned on Goblin 2 ends after 1 round.']));

    t.reopen();
    d = await ok('encounters:undo', { id });
    expect(d.view.round).toBe(1);
    expect(on(d, goblins[0]!)).toEqual(['Stunned: 1 round left']);
    d = await ok('encounters:redo', { id });
    expect(on(d, goblins[0]!)).toEqual([]);
    // Undoing the condition itself takes it off.
    for (let i = 0; i < 4; i++) d = await ok('encounters:undo', { id });
    expect(on(d, goblins[0]!)).toEqual([]);
    expect(d.encounter.eventCount).toBe(3);
  });

  it('a bad condition is a sentence and writes nothing', async () => {
    const { id, goblins } = await fight();
    const before = (await ok('encounters:get', { id })).encounter.eventCount;
    expect(await refused('encounters:append', { id, event: { type: 'CONDITION_ADD', targetIds: goblins, name: '', duration: { kind: 'untilRemoved' } } })).toBe('A name cannot be empty.');
    expect(await refused('encounters:append', { id, event: { type: 'CONDITION_ADD', targetIds: ['nobody'], name: 'Prone', duration: { kind: 'untilRemoved' } } })).toBe('A combatant chosen for the condition is not in this fight.');
    expect((await ok('encounters:get', { id })).encounter.eventCount).toBe(before);
  });

  it('kept in a stored snapshot: a restart resumes from it with the conditions on', async () => {
    const { id, goblins, send } = await fight();
    await send({ type: 'CONDITION_ADD', targetIds: [goblins[1]!], name: 'Poisoned', duration: { kind: 'untilRemoved' } });
    let d: Detail | undefined;
    for (let i = 0; i < SNAPSHOT_EVERY; i++) d = await send({ type: 'END_TURN' });
    const stored = t.rows('SELECT snapshot_json FROM encounter_snapshots WHERE encounter_id = ?', id).map((r) => r['snapshot_json'] as string);
    expect(stored.some((json) => json.includes('Poisoned'))).toBe(true);
    t.reopen();
    const resumed = await ok('encounters:get', { id });
    expect(resumed.view).toEqual(d!.view);
    expect(on(resumed, goblins[1]!)).toEqual(['Poisoned: until removed']);
  });

  it('the exports carry the lines, the HTML with the name escaped', async () => {
    const { id, campaignId, goblins, send } = await fight();
    await send({ type: 'CONDITION_ADD', targetIds: goblins, name: '<b>Hexed</b> & cursed', duration: { kind: 'turnEnd', whoId: goblins[0]! } });
    await send({ type: 'END_TURN' });
    await send({ type: 'END_TURN' });
    const md = (await ok('exports:encounter', { id, format: 'md' })).content;
    // The Markdown escapes markup as it does every name.
    expect(md).toContain("The GM puts &lt;b&gt;Hexed&lt;/b&gt; &amp; cursed on Goblin 1 and Goblin 2, until the end of Goblin 1's next turn.");
    expect(md).toContain("&lt;b&gt;Hexed&lt;/b&gt; &amp; cursed on Goblin 1 ends (the end of Goblin 1's turn).");
    const html = (await ok('exports:encounter', { id, format: 'html' })).content;
    expect(html).toContain('&lt;b&gt;Hexed&lt;/b&gt; &amp; cursed on Goblin 2 ends');
    expect(html).not.toContain('<b>Hexed');
    const json = JSON.parse((await ok('exports:encounter', { id, format: 'json' })).content) as { events: { type: string }[] };
    expect(json.events.map((e) => e.type)).toContain('CONDITION_ADD');
    // An exported campaign imports with its conditions replayed.
    const imported = await ok('imports:campaign', { content: (await ok('exports:campaign', { id: campaignId })).content });
    const copy = (await ok('campaigns:get', { id: imported.id })).encounters[0]!;
    const again = await ok('encounters:get', { id: copy.id });
    expect(again.log.map((l) => l.text)).toContain("<b>Hexed</b> & cursed on Goblin 2 ends (the end of Goblin 1's turn).");
    expect(again.view).toEqual((await ok('encounters:get', { id })).view);
  });

  it('damage to several at once is one event: each line logged, one undo takes it all back, after a restart too', async () => {
    const { id, goblins, send } = await fight();
    const lp = (d: Detail) => d.view.order.filter((c) => c.side === 'gm').map((c) => c.health!.current);
    const before = await ok('encounters:get', { id });
    const d = await send({ type: 'BATCH', events: goblins.map((targetId) => ({ type: 'APPLY_DAMAGE', targetId, amount: 3, source: 'a fireball' })) });
    expect(lp(d)).toEqual(lp(before).map((v) => v - 3));
    expect(d.encounter.eventCount).toBe(before.encounter.eventCount + 1);
    expect(d.log.filter((l) => l.seq === d.encounter.eventCount).map((l) => l.kind)).toEqual(['damage', 'damage']);
    t.reopen();
    const undone = await ok('encounters:undo', { id });
    expect(lp(undone)).toEqual(lp(before));
    const md = (await ok('exports:encounter', { id, format: 'md' })).content;
    expect(md).not.toContain('a fireball');
    await ok('encounters:redo', { id });
    expect((await ok('exports:encounter', { id, format: 'md' })).content.match(/a fireball/g)?.length).toBe(2);
  });
});
