// Each ruleset's recovery on the campaign ledger, through the handler table on a real SQLite file: limits refused
// with a sentence that leaves the database unchanged, countdowns to healed (with the day and session it healed),
// permanent effects, and undo restoring the exact rows. The campaign's condition is what a fight left, written
// into the file the way the encounter's carry-over writes it.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/harness.ts';

const t = useTestApp();
const { ok, refused, rows } = t;

const snapshot = () => ({
  campaigns: rows('SELECT id, day, session_id, party_json FROM campaigns ORDER BY id'),
  characters: rows('SELECT id, state_json FROM characters ORDER BY id'),
  injuries: rows('SELECT id, name, data_json, healed_at, day_healed, session_healed, ledger_seq FROM injuries ORDER BY id'),
});

/** What a fight left on the campaign, written straight into the file (a carried state and running records). */
function leave(characterId: string, campaignId: string, state: Record<string, unknown>, records: { key: string; name: string; category: string; data: Record<string, unknown> }[] = []) {
  const db = new Database(t.dir.file());
  try {
    db.prepare('UPDATE characters SET state_json = ? WHERE id = ?').run(JSON.stringify(state), characterId);
    for (const r of records) {
      db.prepare(`INSERT INTO injuries (id, campaign_id, character_id, name, category, data_json, day_gained, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, 1, '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:00.000Z')`).run(`fight:${r.key}`, campaignId, characterId, r.name, r.category, JSON.stringify(r.data));
    }
  } finally {
    db.close();
  }
}

async function party(rulesetId: string, sheet: Record<string, unknown> = {}) {
  const campaign = await ok('campaigns:create', { name: 'Ledger', rulesetId });
  const pc = await ok('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Ash', sheet });
  await ok('ledger:append', { campaignId: campaign.id, event: { type: 'SESSION_START', title: 'Aftermath' } });
  return { campaign, pc, act: (event: unknown) => ok('ledger:append', { campaignId: campaign.id, event }), card: async () => (await ok('ledger:get', { campaignId: campaign.id })).characters[0]!.card };
}

/** Refused with this sentence, and nothing in the file changed. */
async function refusedUnchanged(campaignId: string, event: unknown, sentence: string) {
  const before = snapshot();
  const entries = rows('SELECT count(*) AS n FROM ledger_entries');
  expect(await refused('ledger:append', { campaignId, event })).toBe(sentence);
  expect(snapshot()).toEqual(before);
  expect(rows('SELECT count(*) AS n FROM ledger_entries')).toEqual(entries);
}

describe('Enigma on the ledger', () => {
  const injury = { key: 'knee', name: 'Sprained Knee', category: 'speed', data: { id: 'knee', name: 'Sprained Knee', category: 'speed', baseRoll: 2, multiplier: 1, restsRemaining: 2, permanent: false, cureCondition: null } };

  it('counts an injury down one Rest a day until it heals, and refuses a second Rest the same day', async () => {
    const { campaign, pc, act, card } = await party('enigma');
    leave(pc.id, campaign.id, { lp: 3 }, [injury]);
    await act({ type: 'REST', characterId: pc.id });
    expect((await card()).records).toEqual([expect.objectContaining({ name: 'Sprained Knee', status: '1 rest to go' })]);
    await refusedUnchanged(campaign.id, { type: 'REST', characterId: pc.id }, 'Ash has already rested today (day 1).');
    await act({ type: 'ADVANCE_DAYS', days: 1 });
    const healed = await act({ type: 'REST', characterId: pc.id });
    expect(healed.characters[0]!.card.records).toEqual([]);
    const [row] = rows('SELECT healed_at, day_healed, session_healed, data_json FROM injuries');
    expect(row).toMatchObject({ day_healed: 2, session_healed: healed.session!.id });
    expect(JSON.parse(String(row!['data_json']))).toMatchObject({ restsRemaining: 0 });
  });

  it('allows two Breathers a day, not three, and resets Escalation', async () => {
    const { campaign, pc, act } = await party('enigma');
    leave(pc.id, campaign.id, { lp: 1 });
    const db = new Database(t.dir.file());
    db.prepare('UPDATE campaigns SET party_json = ? WHERE id = ?').run('{"escalation":4}', campaign.id);
    db.close();
    await act({ type: 'BREATHER', characterId: pc.id });
    expect(rows('SELECT party_json FROM campaigns')).toEqual([{ party_json: '{"escalation":null}' }]);
    await act({ type: 'BREATHER', characterId: pc.id });
    await refusedUnchanged(campaign.id, { type: 'BREATHER', characterId: pc.id }, 'Ash has already taken two Breathers today (day 1).');
  });

  it('undoes a Rest to the exact rows it replaced, and redoes it to the exact rows it wrote', async () => {
    const { campaign, pc, act } = await party('enigma');
    leave(pc.id, campaign.id, { lp: 3 }, [{ ...injury, data: { ...injury.data, restsRemaining: 1 } }]);
    const before = snapshot();
    await act({ type: 'REST', characterId: pc.id });
    const after = snapshot();
    expect(after.injuries[0]!['healed_at']).not.toBeNull();
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(snapshot()).toEqual(before);
    await ok('ledger:redo', { campaignId: campaign.id });
    expect(snapshot()).toEqual(after);
  });

  it('never counts a permanent injury down', async () => {
    const { campaign, pc, act, card } = await party('enigma');
    leave(pc.id, campaign.id, { lp: 3 }, [{ key: 'eye', name: 'Lost Eye', category: 'glean', data: { ...injury.data, id: 'eye', name: 'Lost Eye', category: 'glean', permanent: true, restsRemaining: 0 } }]);
    await act({ type: 'REST', characterId: pc.id });
    expect((await card()).records).toEqual([expect.objectContaining({ name: 'Lost Eye', permanent: true })]);
    expect(rows('SELECT healed_at FROM injuries')).toEqual([{ healed_at: null }]);
  });

  it('refuses a later fight rewriting a record the ledger treated, and a ledger undo after a fight changed the character', async () => {
    const { campaign, pc, act } = await party('enigma');
    leave(pc.id, campaign.id, { lp: 3 }, [injury]);
    await act({ type: 'REST', characterId: pc.id });
    leave(pc.id, campaign.id, { lp: 1 });
    await refusedUnchanged(campaign.id, undefined, 'The recovery action is missing its type.');
    const before = snapshot();
    expect(await refused('ledger:undo', { campaignId: campaign.id })).toBe('Ash changed after “Ash rests: +4 LP (3 → 7 of 8), all capacity dice back to base; Escalation stays at 1; Sprained Knee 2 → 1 rest.”, so it can no longer be undone.');
    expect(snapshot()).toEqual(before);
  });
});

describe('Teams on the ledger', () => {
  it('rests every pool back to its maximum, keeps the cheat-death difficulty as a lasting mark, and undoes exactly', async () => {
    const { campaign, pc, act, card } = await party('teams');
    leave(pc.id, campaign.id, { endurance: 0, health: 3, stamina: 0, focus: 1, unconscious: true, cheatDeathDifficulty: 15 });
    const before = snapshot();
    await act({ type: 'REST', characterId: pc.id });
    const rested = await card();
    expect(rested.out ?? null).toBeNull();
    expect(rested.marks.join(' ')).toMatch(/Cheat-death difficulty 15/);
    expect(JSON.parse(String(rows('SELECT state_json FROM characters WHERE id = ?', pc.id)[0]!['state_json']))).toMatchObject({ unconscious: false, cheatDeathDifficulty: 15 });
    await ok('ledger:undo', { campaignId: campaign.id });
    expect(snapshot()).toEqual(before);
  });

  it('refuses every recovery for the dead, with the reason', async () => {
    const { campaign, pc } = await party('teams');
    leave(pc.id, campaign.id, { endurance: 0, health: 0, dead: true });
    await refusedUnchanged(campaign.id, { type: 'REST', characterId: pc.id }, 'Ash is dead: nothing recovers.');
  });
});

describe('Factions on the ledger', () => {
  it('repairs a damaged weapon and heals its gear record; a destroyed shield can only be replaced', async () => {
    const { campaign, pc, act, card } = await party('factions', { hasShield: true, armour: 2 });
    leave(pc.id, campaign.id, { health: 2, gear: { weapon: 'damaged', shield: 'destroyed', armour: 'intact' } }, [
      { key: 'weapon', name: 'Weapon damaged', category: 'gear', data: { kind: 'gear', item: 'weapon', state: 'damaged' } },
    ]);
    await act({ type: 'REPAIR_GEAR', characterId: pc.id, item: 'weapon', note: 'the smith at Murdham, 2 silver' });
    expect(rows('SELECT healed_at IS NOT NULL AS healed FROM injuries')).toEqual([{ healed: 1 }]);
    expect(JSON.parse(String(rows('SELECT state_json FROM characters WHERE id = ?', pc.id)[0]!['state_json'])).gear).toMatchObject({ weapon: 'intact', shield: 'destroyed' });
    const refusal = await refused('ledger:append', { campaignId: campaign.id, event: { type: 'REPAIR_GEAR', characterId: pc.id, item: 'shield' } });
    expect(refusal).toMatch(/destroyed/);
    await act({ type: 'REPLACE_GEAR', characterId: pc.id, item: 'shield' });
    expect((await card()).stats.map((s) => s.value).join(' ')).not.toMatch(/destroyed/);
  });
});

describe('Cairn-Errant on the ledger', () => {
  const wound = (id: string, severity: string, extra: Record<string, unknown> = {}) => ({
    key: id, name: `${severity[0]!.toUpperCase()}${severity.slice(1)} frostbite`, category: 'wound',
    data: { id, kind: 'wound', type: 'frostbite', severity, attribute: null, source: 'the pass', trainedBack: false, ...extra },
  });

  it('heals a severe wound after seven days of medical care, counted as days pass', async () => {
    const { campaign, pc, act, card } = await party('cairn-errant');
    leave(pc.id, campaign.id, {}, [wound('w1', 'severe')]);
    await act({ type: 'BEGIN_CARE', characterId: pc.id, recordId: 'fight:w1' });
    expect((await card()).records[0]!.status).toMatch(/heals on day 8/);
    await act({ type: 'ADVANCE_DAYS', days: 6 });
    expect(rows('SELECT healed_at FROM injuries')).toEqual([{ healed_at: null }]);
    await act({ type: 'ADVANCE_DAYS', days: 1 });
    expect(rows('SELECT day_healed FROM injuries')).toEqual([{ day_healed: 8 }]);
  });

  it('treats a light wound in the field only with medicine at hand', async () => {
    const { campaign, pc, act } = await party('cairn-errant');
    leave(pc.id, campaign.id, {}, [wound('w1', 'light')]);
    await refusedUnchanged(campaign.id, { type: 'FIELD_TREATMENT', characterId: pc.id, recordId: 'fight:w1', medicine: false }, "Ash's light frostbite heals in the field only with the right medicine or herbs at hand (§4.6).");
    await act({ type: 'FIELD_TREATMENT', characterId: pc.id, recordId: 'fight:w1', medicine: true });
    expect(rows('SELECT healed_at IS NOT NULL AS healed FROM injuries')).toEqual([{ healed: 1 }]);
  });

  it('keeps a permanent wound\'s slot lost for good after training the attribute back, on a grid of ten slots', async () => {
    const { campaign, pc, act, card } = await party('cairn-errant');
    leave(pc.id, campaign.id, {}, [wound('w3', 'permanent', { attribute: 'wil' })]);
    expect((await card()).slots).toHaveLength(10);
    await act({ type: 'TRAIN_BACK', characterId: pc.id, recordId: 'fight:w3' });
    const after = await card();
    expect(after.slots!.filter((s) => s.kind === 'lost' || s.kind === 'wound')).toHaveLength(1);
    expect(rows('SELECT healed_at FROM injuries')).toEqual([{ healed_at: null }]);
    await refusedUnchanged(campaign.id, { type: 'TRAIN_BACK', characterId: pc.id, recordId: 'fight:w3' }, 'Ash has already trained back the point lost to this frostbite.');
  });
});

describe('Thrum on the ledger', () => {
  const woundRecord = (n: number) => ({ key: `wound${n}`, name: `Wound ${n} of 3`, category: 'wound', data: { kind: 'wound', number: n, round: 4, outOfAction: n >= 3 } });

  it('Downtime restores both tolerances and heals one Wound, once a day, the whole party at once', async () => {
    const { campaign, pc, act, card } = await party('thrum', { baseFatigueTolerance: 5, fatigueTolerance: 5, baseStressTolerance: 4, stressTolerance: 4 });
    leave(pc.id, campaign.id, { fatigueTolerance: 1, stressTolerance: 2, wounds: 2 }, [woundRecord(1), woundRecord(2)]);
    await act({ type: 'PARTY', action: { type: 'DOWNTIME', days: 1 }, characterIds: [pc.id] });
    expect(rows('SELECT name, healed_at IS NOT NULL AS healed FROM injuries ORDER BY name')).toEqual([{ name: 'Wound 1 of 3', healed: 0 }, { name: 'Wound 2 of 3', healed: 1 }]);
    expect(Object.fromEntries((await card()).stats.map((s) => [s.label, s.value]))).toMatchObject({ Wounds: '1/3' });
    await refusedUnchanged(campaign.id, { type: 'DOWNTIME', characterId: pc.id, days: 1 }, 'Ash has already had Downtime today (day 1): move the campaign clock on first.');
  });
});
