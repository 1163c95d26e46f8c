// Undo across the end of a fight: once a fight's end is written onto the campaign and the campaign moves on (a
// ledger entry, another fight's end), the end is no longer undone — by the handler every transport calls, by gmw
// as a script runs it, after an import — and the runner is told why; a ledger entry under a later fight's end is
// not undone or redone either; a redo of an ending shows the review first.
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

/** Every stored row of every table, to prove a refusal wrote nothing. */
function fingerprint(file = t.dir.file()): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    return JSON.stringify(tables.map((table) => db.prepare(`SELECT * FROM "${table}"`).all().map((row) => JSON.stringify(row)).sort()));
  } finally {
    db.close();
  }
}

/** Berrik (Endure d10) ends a fight at 4 LP of 10. */
async function foughtToFour(name = 'Bridge') {
  const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
  const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
  const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  const fight = async (fightName: string) => {
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: fightName });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    const started = await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    const ids = Object.fromEntries(started.view.order.map((c) => [c.name, c.id])) as Record<string, string>;
    return { encounter, ids };
  };
  const { encounter, ids } = await fight(name);
  await ok('encounters:append', { id: encounter.id, event: { type: 'APPLY_DAMAGE', targetId: ids['Berrik'], amount: 6, source: 'a club' } });
  const ended = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
  expect(ended.view.phase).toBe('ended');
  const lp = async () => ((await ok('campaigns:get', { id: campaign.id })).characters.find((c) => c.id === berrik.id)!.condition as { lp?: number }).lp;
  expect(await lp()).toBe(4);
  return { campaign, berrik, goblin, encounter, fight, lp };
}

const rest = (campaignId: string, characterId: string) => ok('ledger:append', { campaignId, event: { type: 'REST', characterId } });
const MOVED_ON = /^This fight's end was written onto the campaign, and the campaign has moved on since \(“Berrik rests.*” on day 1\)\. Undo the later ledger entries first, or leave the fight ended\.$/;

describe('undoing a fight’s end after a Rest', () => {
  it('is refused with a sentence, changes nothing, and is not offered; it works again once the Rest is undone', async () => {
    const { campaign, berrik, encounter, lp } = await foughtToFour();
    await rest(campaign.id, berrik.id);
    expect(await lp()).toBe(9);

    const shown = await ok('encounters:get', { id: encounter.id });
    expect(shown.canUndo).toBe(false);
    expect(shown.undoLabel).toMatch(MOVED_ON);
    const before = fingerprint();
    const sentence = await refused('encounters:undo', { id: encounter.id });
    expect(sentence).toBe(shown.undoLabel);
    expect(fingerprint()).toBe(before);
    // The fight stays ended and the campaign keeps the Rest: no second Rest that day.
    expect((await ok('encounters:get', { id: encounter.id })).view.phase).toBe('ended');
    expect(await refused('ledger:append', { campaignId: campaign.id, event: { type: 'REST', characterId: berrik.id } })).toMatch(/already/);

    // Undo the later entry first: then the fight's end can be undone, and the campaign goes back to before it.
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(await lp()).toBe(4);
    const reopened = await ok('encounters:undo', { id: encounter.id });
    expect(reopened.view.phase).toBe('running');
    expect(await lp()).toBeUndefined();
    // The Rest no longer fits the campaign it was taken on.
    expect(await refused('ledger:redo', { campaignId: campaign.id })).toMatch(/^The undone action no longer fits: Berrik /);
  });

  it('is refused after another fight’s end written later, until that one is undone', async () => {
    const { encounter, fight } = await foughtToFour();
    const later = await fight('Ford');
    await ok('encounters:append', { id: later.encounter.id, event: { type: 'END_COMBAT', outcome: 'Retreat' } });
    const shown = await ok('encounters:get', { id: encounter.id });
    expect(shown.canUndo).toBe(false);
    expect(shown.undoLabel).toBe("This fight's end was written onto the campaign, and the campaign has moved on since (“Ford” ended after it). Undo that fight's end first, or leave this one ended.");
    const before = fingerprint();
    expect(await refused('encounters:undo', { id: encounter.id })).toBe(shown.undoLabel);
    expect(fingerprint()).toBe(before);
    await ok('encounters:undo', { id: later.encounter.id });
    expect((await ok('encounters:undo', { id: encounter.id })).view.phase).toBe('running');
  });
});

describe('a ledger entry under a later fight’s end', () => {
  it('is not undone or redone while that end stands (the reverse direction), and is once it is undone', async () => {
    const campaign = await ok('campaigns:create', { name: 'Vault', rulesetId: 'enigma' });
    const berrik = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10 } });
    const goblin = await ok('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
    const encounter = await ok('encounters:create', { campaignId: campaign.id, name: 'Bridge' });
    await ok('encounters:addFromCampaign', { id: encounter.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
    await ok('encounters:append', { id: encounter.id, event: { type: 'START' } });
    await ok('ledger:append', { campaignId: campaign.id, event: { type: 'ADVANCE_DAYS', days: 1 } });
    await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    const before = fingerprint();
    const sentence = "“A day passes: day 1 → day 2.” can no longer be undone: the end of “Bridge” was written onto the campaign after it. Undo that fight's end first (in its runner), or leave the ledger as it is.";
    expect(await refused('ledger:undo', { campaignId: campaign.id })).toBe(sentence);
    expect(fingerprint()).toBe(before);
    // The Recovery screen does not offer it, and says why.
    expect(await ok('ledger:get', { campaignId: campaign.id })).toMatchObject({ canUndo: false, undoLabel: sentence });
    // Undo the fight's end, then the day: both go; redo the day, then the end (after its review).
    await ok('encounters:undo', { id: encounter.id });
    await ok('ledger:undo', { campaignId: campaign.id });
    expect((await ok('campaigns:get', { id: campaign.id })).day).toBe(1);
    // Undone, the day cannot come back under a fight's end written after it either.
    await ok('encounters:redo', { id: encounter.id, confirm: true });
    const redo = await ok('ledger:get', { campaignId: campaign.id });
    expect(redo).toMatchObject({ canRedo: false, redoLabel: expect.stringMatching(/^“A day passes: day 1 → day 2\.” can no longer be redone: the end of “Bridge”/) });
    expect(await refused('ledger:redo', { campaignId: campaign.id })).toBe(redo.redoLabel);
    await ok('encounters:undo', { id: encounter.id });
    await ok('ledger:redo', { campaignId: campaign.id });
    expect((await ok('encounters:redo', { id: encounter.id, confirm: true })).view.phase).toBe('ended');
  });
});

describe('redoing a fight’s end', () => {
  it('shows the same review as the first end, with its adjustments, and writes only when confirmed', async () => {
    const { campaign, berrik, encounter, lp } = await foughtToFour();
    await ok('encounters:undo', { id: encounter.id });
    // The ending had no adjustments; end it again with one, then take that back.
    const ended = await ok('encounters:append', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' }, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 6 }], carryReason: 'a draught' });
    expect(ended.view.phase).toBe('ended');
    await ok('encounters:undo', { id: encounter.id });
    expect(await lp()).toBeUndefined();

    const before = fingerprint();
    // A plain redo (a script that did not look) is refused: nothing written.
    expect(await refused('encounters:redo', { id: encounter.id }))
      .toBe('Redoing “End combat” ends the fight and writes its consequences onto the campaign, so it is shown first: redo it in the runner, or send "ask": true to see them and "confirm": true to write them.');
    expect(fingerprint()).toBe(before);
    // Asked: the review, as the first end showed it, with the adjustment the undone end held.
    const asked = await ok('encounters:redo', { id: encounter.id, ask: true });
    expect(fingerprint()).toBe(before);
    expect(asked.view.phase).toBe('running');
    expect(asked.carryCheck?.event).toEqual({ type: 'END_COMBAT', outcome: 'Victory' });
    expect(asked.carryCheck?.adjusted).toEqual({ adjust: [{ characterId: berrik.id, key: 'lp', value: 6 }], reason: 'a draught' });
    const first = await ok('encounters:carryPreview', { id: encounter.id, event: { type: 'END_COMBAT', outcome: 'Victory' } });
    expect(asked.carryCheck?.carry).toEqual(first.carry);
    // Confirmed with what the GM agreed this time: written, and logged as the override.
    const redone = await ok('encounters:redo', { id: encounter.id, confirm: true, carryAdjust: [{ characterId: berrik.id, key: 'lp', value: 5 }], carryReason: 'half the draught' });
    expect(redone.view.phase).toBe('ended');
    expect(redone.canRedo).toBe(false);
    expect(await lp()).toBe(5);
    expect(redone.log.at(-1)!.text).toBe("GM override: Berrik's LP is carried as 5 instead of 4 (half the draught).");
    void campaign;
  });
});

describe('an imported campaign', () => {
  it('keeps the rule: its fight’s end, with a Rest after it, is not undone', async () => {
    const { campaign, berrik } = await foughtToFour();
    await rest(campaign.id, berrik.id);
    const file = await ok('exports:campaign', { id: campaign.id });
    const imported = await ok('imports:campaign', { content: file.content });
    const [fight] = rows('SELECT id FROM encounters WHERE campaign_id = ?', imported.id) as { id: string }[];
    const shown = await ok('encounters:get', { id: fight!.id });
    expect(shown.view.phase).toBe('ended');
    expect(shown.canUndo).toBe(false);
    expect(shown.undoLabel).toMatch(MOVED_ON);
    const before = fingerprint();
    expect(await refused('encounters:undo', { id: fight!.id })).toMatch(MOVED_ON);
    expect(fingerprint()).toBe(before);
    // Its Rest undone, the end goes too.
    await ok('ledger:undo', { campaignId: imported.id });
    expect((await ok('encounters:undo', { id: fight!.id })).view.phase).toBe('running');
  });

  it('whose ledger ends before the fight’s end can undo that end', async () => {
    const { campaign } = await foughtToFour();
    const file = await ok('exports:campaign', { id: campaign.id });
    const imported = await ok('imports:campaign', { content: file.content });
    const [fight] = rows('SELECT id FROM encounters WHERE campaign_id = ?', imported.id) as { id: string }[];
    expect((await ok('encounters:get', { id: fight!.id })).canUndo).toBe(true);
    expect((await ok('encounters:undo', { id: fight!.id })).view.phase).toBe('running');
  });
});

describe('gmw, as a script runs it', () => {
  const root = join(import.meta.dirname, '..');
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--node-only', '--quiet'], { cwd: root, stdio: 'inherit' });
  }, 240_000);

  it('refuses the undo with exit 1 and the sentence, and a plain redo of an ending likewise', async () => {
    const { campaign, berrik, encounter } = await foughtToFour();
    await rest(campaign.id, berrik.id);
    t.app.close();
    const gmw = (...args: string[]) => spawnSync(process.execPath, [join(root, 'dist', 'cli', 'gmw.cjs'), ...args, '--db', t.dir.file()], { encoding: 'utf8' });
    const before = fingerprint();
    const undo = gmw('encounters:undo', JSON.stringify({ id: encounter.id }));
    expect(undo.status).toBe(1);
    expect(undo.stderr.trim()).toMatch(MOVED_ON);
    expect(undo.stdout).toBe('');
    expect(fingerprint()).toBe(before);

    // With the Rest undone the end is undone; its redo then needs the review's confirmation.
    expect(gmw('ledger:undo', JSON.stringify({ campaignId: campaign.id })).status).toBe(0);
    expect(gmw('encounters:undo', JSON.stringify({ id: encounter.id })).status).toBe(0);
    const unseen = fingerprint();
    const redo = gmw('encounters:redo', JSON.stringify({ id: encounter.id }));
    expect(redo.status).toBe(1);
    expect(redo.stderr.trim()).toMatch(/^Redoing “End combat” ends the fight and writes its consequences onto the campaign/);
    expect(fingerprint()).toBe(unseen);
    const confirmed = gmw('encounters:redo', JSON.stringify({ id: encounter.id, confirm: true }));
    expect(confirmed.status).toBe(0);
    expect(JSON.parse(confirmed.stdout).view.phase).toBe('ended');
    t.reopen();
  }, 60_000);
});
