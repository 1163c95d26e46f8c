// Golden exports: a generated fight of every ruleset (ten combatants with hostile names, some 300 events, undos and
// redos among them) exported as Markdown, HTML and JSON through the handler table on a real SQLite file, and each
// file compared, byte for byte, with what it was when exports.json beside this test was written. The exports are
// made twice: by the app that appended the events (it keeps the fight's summary) and as the first export of a
// freshly opened app (its summary adds up the stored roster changes). A change that makes an export faster must
// leave every byte as it was; this test says which ruleset and which format moved, and writes the new file to a
// temporary folder to compare.
//
// A deliberate change of output: `GOLDEN_UPDATE=1 npx vitest run server/golden` writes exports.json again.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EncounterInput, GmEvent } from '../../core/encounter/types.ts';
import type { ExportFormat } from '../../core/export/types.ts';
import type { RulesetId } from '../../core/rulesets/types.ts';
import { generateFight, RULESET_IDS } from '../../bench/fight.ts';
import { useTestApp } from '../testing/harness.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const FILE = join(HERE, 'exports.json');
const UPDATE = process.env['GOLDEN_UPDATE'] === '1';
const FORMATS: readonly ExportFormat[] = ['md', 'html', 'json'];
const NOW = '2026-01-01T09:00:00.000Z';

/** Each export as its length in UTF-16 units and the SHA-256 of its UTF-8 bytes. */
type Digest = { length: number; sha256: string };
type GoldenExports = Record<string, Record<ExportFormat, Digest>>;

const digest = (content: string): Digest => ({ length: content.length, sha256: createHash('sha256').update(content).digest('hex') });

/**
 * Names that every format must escape or collapse: markup, quotes, ampersands, table pipes, Markdown's openers, and
 * runs of spaces and tabs (the schemas trim only the ends).
 */
const HOSTILE_NAMES = [
  '<script>alert(1)</script>',
  '"Quoted" & \'single\'',
  'Pipe | star * under_score',
  'Tab\there  two  spaces',
  '# heading [[wiki]] `code`',
  "'><svg onload=alert(1)>",
  '== mark %% note ^ ~ $x$',
  '1. listed',
  '- dashed',
  'Plain Raider',
];

const t = useTestApp();
const { ok } = t;

let next = 0;
const newId = () => `id-${String((next += 1)).padStart(4, '0')}`;

async function exportsOf(id: string): Promise<Record<ExportFormat, string>> {
  const files = {} as Record<ExportFormat, string>;
  for (const format of FORMATS) files[format] = (await ok('exports:encounter', { id, format })).content;
  return files;
}

/** A generated fight of `rulesetId` with the hostile names, played through the handlers; its encounter's id. */
async function playedFight(rulesetId: RulesetId): Promise<string> {
  next = 0;
  t.reopen({ now: () => NOW, newId });
  const campaign = await ok('campaigns:create', { name: '<b>Vault</b> & "friends" | `x`', rulesetId });
  const encounter = await ok('encounters:create', { campaignId: campaign.id, name: "Toll bridge <i>'s</i> & [link](x)" });
  const [row] = t.rows('SELECT input_json FROM encounters WHERE id = ?', encounter.id) as { input_json: string }[];
  const fight = generateFight(rulesetId, HOSTILE_NAMES.length, 300, 11, [], undefined, JSON.parse(row!.input_json) as EncounterInput);
  let named = 0;
  const events = fight.events.map((event): GmEvent => {
    if (event.type !== 'ADD_COMBATANTS') return event;
    const combatants = (event['combatants'] as { name: string }[]).map((c) => ({ ...c, name: HOSTILE_NAMES[named++ % HOSTILE_NAMES.length]! }));
    return { ...event, combatants };
  });
  for (const [index, event] of events.entries()) {
    await ok('encounters:append', { id: encounter.id, event });
    if (index % 53 === 52) {
      await ok('encounters:undo', { id: encounter.id });
      await ok('encounters:redo', { id: encounter.id, confirm: true });
    }
  }
  return encounter.id;
}

const golden: GoldenExports = UPDATE ? {} : (JSON.parse(readFileSync(FILE, 'utf8')) as GoldenExports);
let written = 0;

describe('golden exports: every byte of each format as it was written', () => {
  it.each(RULESET_IDS)('%s: Markdown, HTML and JSON, by the app that played the fight and by a freshly opened one', async (rulesetId) => {
    const id = await playedFight(rulesetId);
    const kept = await exportsOf(id);
    t.reopen({ now: () => NOW, newId });
    const first = await exportsOf(id);
    expect(first).toEqual(kept);
    const digests = Object.fromEntries(FORMATS.map((format) => [format, digest(first[format])])) as Record<ExportFormat, Digest>;
    if (UPDATE) {
      golden[rulesetId] = digests;
      if (++written === RULESET_IDS.length) writeFileSync(FILE, `${JSON.stringify(golden, null, 2)}\n`);
      return;
    }
    const moved = FORMATS.filter((format) => digests[format].sha256 !== golden[rulesetId]?.[format].sha256);
    if (moved.length) {
      const folder = mkdtempSync(join(tmpdir(), `gmw-golden-export-${rulesetId}-`));
      for (const format of moved) writeFileSync(join(folder, `export.${format}`), first[format]);
      expect.fail(`The ${rulesetId} export changed (${moved.join(', ')}); the new files are in ${folder}.`);
    }
    expect(digests).toEqual(golden[rulesetId]);
  });
});
