// The campaign file format on its own: reading untrusted text (size, nesting, prototype keys), references in place
// of database ids (and back to fresh ids), and the checks that need no database.
import { describe, expect, it } from 'vitest';
import { GmError } from '../api/contract.ts';
import { campaignFile, campaignRows, nestingDepth, parseCampaignFile, readImportText, unlinkEvent, utf8Length, type StoredCampaign } from './campaign.ts';

const refusal = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(GmError);
    return (error as GmError).message;
  }
  throw new Error('expected a refusal');
};

describe('reading the text of a file', () => {
  it('counts UTF-8 bytes as Buffer does, surrogate pairs included', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€\u0000', '\ud800x']) expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });

  it('measures nesting outside strings, with escaped quotes inside strings', () => {
    expect(nestingDepth('{"a":[1,{"b":[]}]}', 64)).toBe(4);
    expect(nestingDepth('{"a":"[[[[{{{{"}', 64)).toBe(1);
    expect(nestingDepth('["\\"[[[", [[]]]', 64)).toBe(3);
    expect(nestingDepth('['.repeat(10_000), 64)).toBe(65);
  });

  it('skips a byte-order mark and refuses prototype keys at any depth', () => {
    expect(readImportText('\uFEFF{"a":1}')).toEqual({ a: 1 });
    expect(refusal(() => readImportText('{"a":[{"b":{"__proto__":{"x":1}}}]}'))).toBe('The file contains a key named “__proto__”, which no export of this app has.');
    expect(refusal(() => readImportText('[{"constructor":1}]'))).toBe('The file contains a key named “constructor”, which no export of this app has.');
  });
});

/** A small campaign as stored: two characters, one fight with an injury and a carry-over, a ledger naming a gone session. */
function stored(): StoredCampaign {
  const ash = 'f0e1d2c3-0000-4000-8000-000000000001';
  const npc = 'f0e1d2c3-0000-4000-8000-000000000002';
  const fight = 'f0e1d2c3-0000-4000-8000-0000000000e1';
  const session = 'f0e1d2c3-0000-4000-8000-0000000000a1';
  const gone = 'f0e1d2c3-0000-4000-8000-0000000000a2';
  const record = `${fight}:ash.injury1`;
  const at = '2026-11-20T10:00:00.000Z';
  return {
    campaign: { name: 'Vault', ruleset_id: 'enigma', options_json: '{}', party_json: '{"escalation":2}', conditions_json: null, day: 3, session_id: session, archived_at: null },
    characters: [
      { id: ash, role: 'pc', name: 'Ash', sheet_json: '{"endure":10}', state_json: JSON.stringify({ lp: 4, recoveryDay: { treatedInjuryIds: [record] } }), archived_at: null, created_at: at, updated_at: at },
      { id: npc, role: 'npc', name: 'c1', sheet_json: '{}', state_json: '{}', archived_at: null, created_at: at, updated_at: at },
    ],
    sessions: [{ id: session, number: 1, title: 'One', real_date: '2026-11-20', notes: '', start_day: 1, end_day: null, started_at: at, ended_at: null }],
    encounters: [{
      id: fight, name: 'Bridge', input_json: '{"options":{},"carried":{"escalation":null}}', session_id: session, day: 1, created_at: at, updated_at: at,
      events: [{ payload_json: JSON.stringify({ type: 'ADD_COMBATANTS', combatants: [{ id: 'ash', name: 'Ash', side: 'party', characterId: ash, sheet: {} }, { id: 'g1', name: 'c1 1', side: 'gm', characterId: npc, sheet: {} }] }), recorded_at: at }],
      carry: [{ subject: `character:${ash}`, previous_json: '{}' }, { subject: 'campaign', previous_json: '{}' }],
    }],
    injuries: [{
      id: record, character_id: ash, name: 'Sprained Ankle', category: 'speed', data_json: '{"id":"ash.injury1","restsRemaining":2}', source_encounter_id: fight, source_seq: 1,
      day_gained: 1, session_gained: session, day_healed: null, session_healed: null, ledger_seq: 2, created_at: at, updated_at: at, healed_at: null,
    }],
    ledger: [
      {
        seq: 1, type: 'SESSION_START', payload_json: JSON.stringify({ type: 'SESSION_START', sessionId: gone }), log_json: '["Zero starts."]', day: 1, session_id: gone, subjects_json: '[]',
        before_json: JSON.stringify({ clock: { day: 1, sessionId: null }, [`session:${gone}`]: null }),
        after_json: JSON.stringify({ clock: { day: 1, sessionId: gone }, [`session:${gone}`]: { id: gone, campaign_id: 'old', number: 1, title: 'Zero', real_date: '2026-11-19', notes: '', start_day: 1, end_day: null, started_at: at, ended_at: null } }),
        state: 'dropped', recorded_at: at,
      },
      {
        seq: 2, type: 'REST', payload_json: JSON.stringify({ type: 'REST', characterId: ash }), log_json: '["Ash rests."]', day: 2, session_id: session, subjects_json: JSON.stringify([ash]),
        before_json: JSON.stringify({ [`character:${ash}`]: '{"lp":1}', [`record:${record}`]: { name: 'Sprained Ankle', data_json: '{"id":"ash.injury1","restsRemaining":3}', healed_at: null, day_healed: null, session_healed: null, ledger_seq: null } }),
        after_json: JSON.stringify({ [`character:${ash}`]: JSON.stringify({ lp: 4, recoveryDay: { treatedInjuryIds: [record] } }), [`record:${record}`]: { name: 'Sprained Ankle', data_json: '{"id":"ash.injury1","restsRemaining":2}', healed_at: null, day_healed: null, session_healed: null, ledger_seq: 2 } }),
        state: 'done', recorded_at: at,
      },
    ],
  };
}

describe('references in place of database ids', () => {
  it('numbers what the tables hold, then what only the history names, and escapes reference-like texts', () => {
    const file = campaignFile(stored(), 'now');
    const text = JSON.stringify(file);
    expect(text).not.toMatch(/f0e1d2c3/);
    expect(file.characters.map((c) => [c.ref, c.name])).toEqual([['c1', 'Ash'], ['c2', 'c1']]);
    expect(file.characters[0]!.condition).toEqual({ lp: 4, recoveryDay: { treatedInjuryIds: ['r1'] } });
    expect(file.encounters[0]!.events[0]!.event['combatants']).toMatchObject([{ characterId: 'c1', name: 'Ash' }, { characterId: 'c2', name: 'c1 1' }]);
    expect(file.encounters[0]!.carried.map((c) => c.subject)).toEqual(['campaign', 'c1']);
    expect(file.records[0]).toMatchObject({ ref: 'r1', character: 'c1', source: { encounter: 'e1', seq: 1, key: 'ash.injury1' }, sessionGained: 's1', ledgerSeq: 2 });
    // The dropped session start names a session that is gone: it is s2, declared by the ledger alone.
    expect(file.ledger[0]).toMatchObject({ session: 's2', payload: { sessionId: 's2' }, after: { clock: { day: 1, session: 's2' }, 'session:s2': { title: 'Zero' } } });
    expect(file.ledger[1]!.after).toEqual({
      'character:c1': { lp: 4, recoveryDay: { treatedInjuryIds: ['r1'] } },
      'record:r1': { name: 'Sprained Ankle', data: { id: 'ash.injury1', restsRemaining: 2 }, healedAt: null, dayHealed: null, sessionHealed: null, ledgerSeq: 2 },
    });
  });

  it('turns a file back into rows with fresh ids that give the same file again', () => {
    const original = stored();
    const file = parseCampaignFile(JSON.parse(JSON.stringify(campaignFile(original, 'now'))));
    let n = 0;
    const rows = campaignRows(file, 'new-campaign', () => `new-${(n += 1)}`);
    expect(JSON.stringify(campaignFile(rows, 'now'))).toBe(JSON.stringify(campaignFile(original, 'now')));
    const ash = rows.characters[0]!.id;
    const fight = rows.encounters[0]!.id;
    expect(rows.injuries[0]!.id).toBe(`${fight}:ash.injury1`);
    expect(JSON.parse(rows.characters[0]!.state_json)).toEqual({ lp: 4, recoveryDay: { treatedInjuryIds: [`${fight}:ash.injury1`] } });
    expect(rows.characters[1]!.name).toBe('c1');
    // Images come back exactly as db/ledger.ts reads them, the session row belonging to the new campaign.
    const after = JSON.parse(rows.ledger[1]!.after_json);
    expect(Object.keys(after)).toEqual([`character:${ash}`, `record:${fight}:ash.injury1`]);
    expect(Object.keys(after[`record:${fight}:ash.injury1`])).toEqual(['name', 'data_json', 'healed_at', 'day_healed', 'session_healed', 'ledger_seq']);
    const start = JSON.parse(rows.ledger[0]!.after_json);
    const goneId = JSON.parse(rows.ledger[0]!.payload_json).sessionId;
    expect(start[`session:${goneId}`]).toMatchObject({ id: goneId, campaign_id: 'new-campaign', title: 'Zero' });
    expect(rows.sessions.map((s) => s.id)).not.toContain(goneId);
  });

  it('cuts an imported event loose from the characters it named', () => {
    expect(unlinkEvent({ type: 'END_COMBAT', outcome: 'x', carryAdjust: [{ characterId: 'a', key: 'lp', value: 1 }], carryReason: 'r' })).toEqual({ type: 'END_COMBAT', outcome: 'x' });
    expect(unlinkEvent({ type: 'ADD_COMBATANTS', combatants: [{ id: 'a', characterId: 'x', carried: { characterId: 'y' } }] }))
      .toEqual({ type: 'ADD_COMBATANTS', combatants: [{ id: 'a', characterId: null, carried: { characterId: null } }] });
  });
});

describe('checks that need no database', () => {
  const file = () => JSON.parse(JSON.stringify(campaignFile(stored(), 'now')));

  it('refuses a record whose encounter key is used twice, a ledger entry naming a missing entry, and an undeclared subject', () => {
    const twice = file();
    twice.records.push({ ...twice.records[0], ref: 'r2' });
    expect(refusal(() => parseCampaignFile(twice))).toBe('The file has two records with the key e1:ash.injury1.');
    const seq = file();
    seq.records[0].ledgerSeq = 9;
    expect(refusal(() => parseCampaignFile(seq))).toBe('Record r1 (Sprained Ankle) was last changed by ledger entry 9, which is not in the file.');
    const subject = file();
    subject.ledger[1].subjects = ['c5'];
    const parsed = parseCampaignFile(subject);
    expect(refusal(() => campaignRows(parsed, 'x', () => 'id'))).toBe('Ledger entry 2 refers to c5, which is not in the file.');
  });

  it('refuses a reference in free-form data that the file does not declare, and unescapes escaped texts', () => {
    const unknown = file();
    unknown.characters[0].condition.friend = 'c7';
    expect(refusal(() => campaignRows(parseCampaignFile(unknown), 'x', () => 'id'))).toBe('The condition of Ash refers to c7, which is not in the file.');
    const escaped = file();
    escaped.characters[0].condition.note = '~~e1';
    const rows = campaignRows(parseCampaignFile(escaped), 'x', () => 'id');
    expect(JSON.parse(rows.characters[0]!.state_json).note).toBe('~e1');
  });
});
