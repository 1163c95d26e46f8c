// Golden replays: fixed fights of every ruleset replayed and compared, line for line, with what they gave when the
// files beside this test were written. A refactor of a ruleset must keep every log sentence, every refusal, the
// final view and the export summary word for word; this test says which fight and which part moved.
//
// Each ruleset's file holds what rulesets:get says of it (sheet, options, forms; compared member by member, in order),
// its demo fight (played through the real handlers on a real SQLite file, as the demo button plays it) and three
// fights of the benchmarks' random GM (bench/fight.ts, seeds 1 to 3).
//
// A deliberate change of output: `GOLDEN_UPDATE=1 npx vitest run server/golden` writes the files again; review
// their diff before committing it (docs/rulesets/adding-a-ruleset.md).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import type { LogLine } from '../../core/encounter/types.ts';
import { EncounterEngine } from '../../core/encounter/kernel.ts';
import { summarize } from '../../core/export/summary.ts';
import { RULESETS } from '../../core/rulesets/registry.ts';
import type { RulesetId } from '../../core/rulesets/types.ts';
import { openDatabase, writeTransaction, type Db } from '../../db/connection.ts';
import { tempDir } from '../../db/testing/temp-db.ts';
import { generateFight } from '../../bench/fight.ts';
import type { HandlerContext } from '../app.ts';
import { handlers } from '../app.ts';
import { EncounterStore } from '../encounter-store.ts';
// The demo campaigns, one per ruleset: this one import is all the test knows of where they live.
import { demoCampaigns } from '../demo/index.ts';
import { call, playDemo, type DemoCampaign } from '../demo/runner.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const UPDATE = process.env['GOLDEN_UPDATE'] === '1';
const SEEDS = [1, 2, 3] as const;
/** Small fights: four combatants, about 120 events each, so the files stay readable and the test quick. */
const COMBATANTS = 4;
const EVENTS = 120;

/** One fight as the golden file holds it. */
interface GoldenFight {
  /** Every log line: "e<event> r<round> <kind> [@actor]: text ⟨rulings⟩". */
  log: string[];
  /** Each refusal sentence met while the fight was played, with how often. */
  refusals: Record<string, number>;
  view: unknown;
  summary: unknown;
}

interface GoldenFile {
  rulesetId: RulesetId;
  /** What rulesets:get tells the renderer of the ruleset: sheet, options, forms, conditions, recovery forms. */
  info: unknown;
  demo: GoldenFight;
  generated: Record<string, GoldenFight>;
}

function lineText(seq: number, line: LogLine): string {
  const actor = line.actorId ? ` @${line.actorId}` : '';
  const rulings = line.rulings?.length ? ` ⟨${line.rulings.join(', ')}⟩` : '';
  return `e${seq} r${line.round} ${line.kind}${actor}: ${line.text}${rulings}`;
}

/** JSON as it is written to the file and read back (undefined members gone), so the two compare alike. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Every sentence the engines' `refusal` answers while `play` runs, counted. */
function refusalsDuring<T>(play: () => T): { result: T; refusals: Record<string, number> } {
  const refusals: Record<string, number> = {};
  const original = EncounterEngine.prototype.refusal;
  const spy = vi.spyOn(EncounterEngine.prototype, 'refusal').mockImplementation(function (this: EncounterEngine, raw: unknown) {
    const sentence = original.call(this, raw);
    if (sentence !== null) refusals[sentence] = (refusals[sentence] ?? 0) + 1;
    return sentence;
  });
  try {
    return { result: play(), refusals };
  } finally {
    spy.mockRestore();
  }
}

/** A handler context on a real SQLite file, with a fixed clock and counted ids so every run writes the same. */
function goldenContext(db: Db): HandlerContext {
  let next = 0;
  return {
    db,
    encounters: new EncounterStore(db),
    options: { databasePath: ':golden:', transport: 'cli', version: 'golden' },
    now: () => '2026-01-01T09:00:00.000Z',
    newId: () => `id-${String((next += 1)).padStart(4, '0')}`,
    changed: () => {},
    backups: {
      create: () => Promise.reject(new Error('The golden replays make no backups.')),
      restore: () => Promise.reject(new Error('The golden replays make no backups.')),
    },
  };
}

/**
 * The demo of `rulesetId`, played through the handler table on a new SQLite file (so its ids do not depend on the
 * other demos); its encounter read back as the runner and the exports read it.
 */
function demoFight(rulesetId: RulesetId): GoldenFight {
  const demo = demoCampaigns().find((d) => d.rulesetId === rulesetId);
  if (!demo) throw new Error(`No demo campaign for ${rulesetId}.`);
  const dir = tempDir('gmw-golden-');
  const ctx = goldenContext(openDatabase(dir.file()));
  try {
    return playedDemo(ctx, demo);
  } finally {
    ctx.db.close();
    dir.remove();
  }
}

/** What rulesets:get says of the ruleset (app:info's entry before it sent only names), as the renderer receives it. */
async function infoOf(rulesetId: RulesetId): Promise<unknown> {
  const dir = tempDir('gmw-golden-');
  const ctx = goldenContext(openDatabase(dir.file()));
  try {
    return plain(await handlers['rulesets:get'](ctx, { id: rulesetId }));
  } finally {
    ctx.db.close();
    dir.remove();
  }
}

/** JSON lines, members in their order: a reordered or reworded member shows as a changed line. */
const jsonLines = (value: unknown): string[] => JSON.stringify(value, null, 1).split('\n');

function playedDemo(ctx: HandlerContext, demo: DemoCampaign): GoldenFight {
  const rulesetId = demo.rulesetId;
  const { result: campaign, refusals } = refusalsDuring(() => writeTransaction(ctx.db, () => playDemo(ctx, demo)));
  const encounter = ctx.db.prepare('SELECT id FROM encounters WHERE campaign_id = ?').get(campaign.id) as { id: string } | undefined;
  if (!encounter) throw new Error(`The ${rulesetId} demo has no encounter.`);
  const log = call(ctx, 'encounters:log', { id: encounter.id });
  return plain({
    log: log.entries.map((entry) => lineText(entry.seq, entry)),
    refusals,
    view: call(ctx, 'encounters:get', { id: encounter.id }).view,
    summary: call(ctx, 'encounters:summary', { id: encounter.id }),
  });
}

/** A fight of the benchmarks' random GM, replayed through a fresh engine for its log lines. */
function generatedFight(rulesetId: RulesetId, seed: number): GoldenFight {
  const { result: fight, refusals } = refusalsDuring(() => generateFight(rulesetId, COMBATANTS, EVENTS, seed));
  const engine = EncounterEngine.create(fight.rules, fight.input);
  const log: string[] = [];
  const steps = fight.events.map((event, i) => {
    const lines = engine.apply(event);
    for (const line of lines) log.push(lineText(i + 1, line));
    return { event, lines };
  });
  return plain({ log, refusals, view: engine.view(), summary: summarize(fight.rules, fight.input, steps) });
}

const fileOf = (rulesetId: string) => join(HERE, `${rulesetId}.json`);

describe('golden replays', () => {
  for (const { id: rulesetId } of RULESETS) {
    it(`${rulesetId}: its demo fight and three generated fights replay word for word, and rulesets:get describes it as before`, async () => {
      const actual: GoldenFile = {
        rulesetId,
        info: await infoOf(rulesetId),
        demo: demoFight(rulesetId),
        generated: Object.fromEntries(SEEDS.map((seed) => [`seed ${seed}`, generatedFight(rulesetId, seed)])),
      };
      const file = fileOf(rulesetId);
      if (UPDATE) {
        mkdirSync(HERE, { recursive: true });
        writeFileSync(file, `${JSON.stringify(actual, null, 1)}\n`);
        return;
      }
      expect(existsSync(file), `${file} is missing: write it with GOLDEN_UPDATE=1 npx vitest run server/golden`).toBe(true);
      const expected = JSON.parse(readFileSync(file, 'utf8')) as GoldenFile;
      expect(jsonLines(actual.info), `${rulesetId}: rulesets:get`).toEqual(jsonLines(expected.info));
      // Part by part, so a failure names the fight and what moved in it (a log line, a refusal, the view, the summary).
      const fights: [string, GoldenFight, GoldenFight | undefined][] = [
        ['demo', actual.demo, expected.demo],
        ...SEEDS.map((seed): [string, GoldenFight, GoldenFight | undefined] => [`seed ${seed}`, actual.generated[`seed ${seed}`]!, expected.generated[`seed ${seed}`]]),
      ];
      for (const [name, got, want] of fights) {
        expect(want, `${rulesetId} ${name}: not in the golden file`).toBeDefined();
        expect(got.log, `${rulesetId} ${name}: log lines`).toEqual(want!.log);
        expect(got.refusals, `${rulesetId} ${name}: refusals met`).toEqual(want!.refusals);
        expect(got.view, `${rulesetId} ${name}: final view`).toEqual(want!.view);
        expect(got.summary, `${rulesetId} ${name}: export summary`).toEqual(want!.summary);
      }
    });
  }
});
