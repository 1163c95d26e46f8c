// The encounter export: built from the stored events and lines (kept exactly), replayable to the same view, with its
// summary; safe file names; and the small words every rendering shares (outcome, round headings, the log by round).
import { describe, expect, it } from 'vitest';
import { EncounterEngine } from '../encounter/kernel.ts';
import type { CombatantSeed, GmEvent, LogLine } from '../encounter/types.ts';
import { defaultOptions } from '../rulesets/options.ts';
import { findRuleset } from '../rulesets/registry.ts';
import { defaultSheet } from '../rulesets/sheet.ts';
import { buildEncounterExport, exportFilename, logByRound, outcomeText, roundTitle, type StoredEncounter } from './encounter.ts';
import { summarize } from './summary.ts';
import { ENCOUNTER_FORMAT, EXPORT_VERSION } from './types.ts';

const enigma = findRuleset('enigma')!;
const seed = (id: string, side: string): CombatantSeed => ({ id, name: id, side, characterId: null, sheet: defaultSheet(enigma.sheet) as CombatantSeed['sheet'] });

/** An Enigma fight stored the way the database holds it: each event with the lines it wrote, numbered from 1. */
function stored(events: GmEvent[]): { encounter: StoredEncounter; engine: EncounterEngine } {
  const input = { options: defaultOptions(enigma.options), carried: { escalation: null } };
  const engine = EncounterEngine.create(enigma.encounter, input);
  const recorded = events.map((event, i) => ({ seq: i + 1, event, lines: engine.apply(event) as LogLine[] }));
  const view = engine.view();
  return {
    engine,
    encounter: { id: 'enc-1', name: 'Toll bridge', campaignName: 'Vault', rulesetId: 'enigma', createdAt: '2026-11-20T10:00:00.000Z', phase: view.phase, round: view.round, input, events: recorded },
  };
}

const FIGHT: GmEvent[] = [
  { type: 'ADD_COMBATANTS', combatants: [seed('Berrik', 'party'), seed('Goblin', 'gm')] },
  { type: 'START' },
  { type: 'APPLY_DAMAGE', targetId: 'Goblin', amount: 2, source: 'a rock' },
  { type: 'END_TURN' },
  { type: 'END_TURN' },
  { type: 'END_COMBAT', outcome: 'Victory' },
];

describe('the encounter export', () => {
  it('keeps the input, the events and the log lines exactly, numbers the lines by event, and adds the summary', () => {
    const { encounter, engine } = stored(FIGHT);
    const { export: file, view } = buildEncounterExport(encounter, enigma.encounter, '2026-11-21T09:00:00.000Z');
    expect(file).toMatchObject({ format: ENCOUNTER_FORMAT, version: EXPORT_VERSION, exportedAt: '2026-11-21T09:00:00.000Z', rulesetId: 'enigma' });
    expect(file.encounter).toEqual({ id: 'enc-1', name: 'Toll bridge', campaignName: 'Vault', createdAt: '2026-11-20T10:00:00.000Z', phase: 'ended', round: 2, input: encounter.input });
    expect(file.events).toEqual(FIGHT);
    expect(file.log).toEqual(encounter.events.flatMap(({ seq, lines }) => lines.map((line) => ({ ...line, seq }))));
    expect(file.log.filter((l) => l.seq === 2).map((l) => l.text)).toEqual(encounter.events[1]!.lines.map((l) => l.text));
    expect(file.summary).toEqual(summarize(enigma.encounter, encounter.input, encounter.events));
    expect(view).toEqual(engine.view());
    expect(view.outcome).toBe('Victory');
    // What the file says is enough to rebuild the fight: JSON round trip, then replay.
    const parsed = JSON.parse(JSON.stringify(file)) as typeof file;
    const replayed = EncounterEngine.create(enigma.encounter, parsed.encounter.input);
    for (const event of parsed.events) replayed.apply(event);
    expect(replayed.view()).toEqual(engine.view());
  });

  it('takes the lines read with their seq as they are, and copies any other with its seq after its own members', () => {
    const { encounter } = stored(FIGHT);
    // As the database reads them (db/encounters.ts readSteps): each line given its event's seq as it is parsed.
    const read = encounter.events.map(({ seq, event, lines }) => ({ seq, event, lines: lines.map((line) => ({ ...line, seq })) }));
    const { export: file } = buildEncounterExport({ ...encounter, events: read }, enigma.encounter, 'now');
    const readLines = read.flatMap(({ lines }) => lines);
    expect(file.log).toHaveLength(readLines.length);
    file.log.forEach((line, i) => expect(line).toBe(readLines[i]));
    // Lines without their seq (an engine's own) are not changed: the export's are copies, seq last.
    const { export: copied } = buildEncounterExport(encounter, enigma.encounter, 'now');
    const own = encounter.events.flatMap(({ lines }) => lines);
    copied.log.forEach((line, i) => {
      expect(line).not.toBe(own[i]);
      expect(Object.keys(line)).toEqual([...Object.keys(own[i]!), 'seq']);
    });
    expect(own.some((line) => 'seq' in line)).toBe(false);
  });

  it('groups the log by round, with the setup before round 1 and every round of the summary', () => {
    const { encounter } = stored(FIGHT);
    const { export: file } = buildEncounterExport(encounter, enigma.encounter, 'now');
    const groups = logByRound(file);
    expect(groups.map((g) => g.round)).toEqual([0, 1, 2]);
    expect(groups[0]!.lines.map((l) => l.text)).toEqual(['Added Berrik to the party; Goblin to the GM side.']);
    expect(roundTitle(0, file.summary)).toBe('Before the fight');
    expect(roundTitle(0, [{ round: 0 }])).toBe('Round 0');
    expect(roundTitle(2, file.summary)).toBe('Round 2');
  });

  it('says how the fight stands', () => {
    expect(outcomeText('setup', 0, null)).toBe('in preparation');
    expect(outcomeText('running', 3, null)).toBe('still running (round 3)');
    expect(outcomeText('ended', 3, 'Victory')).toBe('Victory');
    expect(outcomeText('ended', 3, undefined)).toBe('ended');
  });
});

describe('export file names', () => {
  it('are lower-case letters, digits and single hyphens, at most 60 characters before the extension', () => {
    expect(exportFilename('Toll Bridge', 'md')).toBe('toll-bridge.md');
    expect(exportFilename('  Ärger   an der Brücke!!  ', 'html')).toBe('arger-an-der-brucke.html');
    expect(exportFilename('<script>alert(1)</script>', 'json')).toBe('script-alert-1-script.json');
    expect(exportFilename('../../etc/passwd', 'md')).toBe('etc-passwd.md');
    expect(exportFilename('a'.repeat(59) + ' b', 'md')).toBe(`${'a'.repeat(59)}.md`);
    expect(exportFilename('x'.repeat(10_000), 'md')).toBe(`${'x'.repeat(60)}.md`);
    expect(exportFilename('⚔️⚔️', 'md')).toBe('encounter.md');
    expect(exportFilename('', 'html', 'session-2')).toBe('session-2.html');
    expect(exportFilename('CON', 'md')).toBe('con-file.md');
    expect(exportFilename('Lpt1', 'json')).toBe('lpt1-file.json');
    for (const name of ['a/b\\c:d*e?f"g<h>i|j', '\u0000\u202e']) expect(exportFilename(name, 'md')).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*\.md$/);
  });
});
