// The process the crash-safety harness kills (server/testing/crash-run.ts). It opens the app on the given file
// through openApp and the real handler table, picks up the campaign and fight where the last (killed) run left
// them, and appends Enigma encounter events and ledger events until it is killed. After each write's dispatch has
// returned it writes one acknowledgement line to stdout with a synchronous write, so a line the parent reads is a
// write the app reported as done:
//   loaded                                                      (modules loaded; waiting for "go" on stdin)
//   ready <campaignId>
//   enc <encounterId> <eventCount> <viewHash>
//   ledger <campaignId> <seq>
//   refused <sentence>                                          (a write the rules refused; nothing changed)
import { writeSync } from 'node:fs';
import type { EncounterDetail, HandlerName, HandlerResults, RecoveryDetail } from '../../core/api/contract.ts';
import type { EncounterView } from '../../core/encounter/types.ts';
import { openApp, type AppService } from '../app.ts';
import { mulberry32, viewHash } from './crash-check.ts';

const CAMPAIGN_NAME = 'Crash safety';
/** A fight ends with END_COMBAT after about this many events, so replays stay short and new fights get created. */
const FIGHT_LENGTH = 240;

class Refused extends Error {}

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function call<N extends HandlerName>(app: AppService, name: N, input: unknown): Promise<HandlerResults[N]> {
  const envelope = await app.dispatch(name, input);
  if ('error' in envelope) {
    if (envelope.error.kind === 'refused' || envelope.error.kind === 'invalid') throw new Refused(`${name}: ${envelope.error.message}`);
    throw new Error(`${name} failed: ${envelope.error.message}`);
  }
  return envelope.result as HandlerResults[N];
}

const newestSeq = (ledger: RecoveryDetail) => Math.max(0, ...ledger.entries.map((e) => e.seq));

/** Loading the modules takes a while; the harness starts the next child early and says "go" when it is its turn. */
function waitForGo(): Promise<void> {
  say('loaded');
  return new Promise((resolve) => {
    process.stdin.once('data', () => resolve());
    // The harness went away without saying go: this child never touched the database.
    process.stdin.once('end', () => process.exit(0));
  });
}

async function main(): Promise<void> {
  const databasePath = argument('--db');
  if (!databasePath) throw new Error('Usage: crash-child --db <file> --seed <n>');
  await waitForGo();
  const random = mulberry32(Number(argument('--seed') ?? 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // As web mode opens it: the database's marker says it is in use until a clean close (db/health.ts).
  const app = openApp({ databasePath, transport: 'web', version: 'crash-test' });

  // Each setup step checks what an earlier, killed run already did, so a kill at any point resumes cleanly.
  let campaign = (await call(app, 'campaigns:list', {})).find((c) => c.name === CAMPAIGN_NAME);
  campaign ??= await call(app, 'campaigns:create', { name: CAMPAIGN_NAME, rulesetId: 'enigma' });
  let home = await call(app, 'campaigns:get', { id: campaign.id });
  if (!home.characters.some((c) => c.role === 'pc')) {
    await call(app, 'characters:create', { campaignId: campaign.id, role: 'pc', name: 'Berrik', sheet: { endure: 10, navigate: 8 } });
  }
  if (!home.characters.some((c) => c.role === 'npc')) {
    await call(app, 'characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { endure: 6 } });
  }
  home = await call(app, 'campaigns:get', { id: campaign.id });
  const pc = home.characters.find((c) => c.role === 'pc')!;
  const npc = home.characters.find((c) => c.role === 'npc')!;
  const running = home.encounters.find((e) => e.phase !== 'ended');
  let fight: EncounterDetail | null = running ? await call(app, 'encounters:get', { id: running.id }) : null;
  say(`ready ${campaign.id}`);

  const ackFight = (detail: EncounterDetail) => {
    fight = detail;
    say(`enc ${detail.encounter.id} ${detail.encounter.eventCount} ${viewHash(detail.view)}`);
  };
  const append = async (event: Record<string, unknown>) => ackFight(await call(app, 'encounters:append', { id: fight!.encounter.id, event }));

  /** The next encounter write: whatever the fight's state asks for, else a random always-allowed event. */
  async function encounterStep(): Promise<void> {
    if (!fight || fight.view.phase === 'ended') {
      // The session is started on its own, so each write below is exactly one acknowledged change.
      if (!(await call(app, 'ledger:get', { campaignId: campaign!.id })).session) {
        say(`ledger ${campaign!.id} ${newestSeq(await call(app, 'ledger:append', { campaignId: campaign!.id, event: { type: 'SESSION_START' } }))}`);
        return;
      }
      // Rest between fights (a Rest treats injuries, which a running fight may no longer rewrite afterwards).
      if (fight && random() < 0.5) {
        say(`ledger ${campaign!.id} ${newestSeq(await call(app, 'ledger:append', { campaignId: campaign!.id, event: { type: 'REST', characterId: pc.id } }))}`);
        return;
      }
      const created = await call(app, 'encounters:create', { campaignId: campaign!.id, name: `Fight ${home.encounters.length + 1}` });
      home.encounters.push(created);
      ackFight(await call(app, 'encounters:get', { id: created.id }));
      return;
    }
    const view: EncounterView = fight.view;
    if (view.phase === 'setup') {
      if (view.order.length === 0) {
        ackFight(await call(app, 'encounters:addFromCampaign', { id: fight.encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 2 }] }));
      } else {
        await append({ type: 'START' });
      }
      return;
    }
    if (view.prompt?.answer === 'RESOLVE_PERIL') {
      const injury = { mode: 'new', name: pick(['Cracked Rib', 'Sprained Ankle', 'Torn Ear']), category: pick(['speed', 'attack', 'glean']), baseRoll: 1 + Math.floor(random() * 4) };
      await append({ type: 'RESOLVE_PERIL', combatantId: view.prompt.subjectId, choice: 'survive', costText: 'a scar', injury });
      return;
    }
    if (view.prompt?.answer === 'CHOOSE_NPC') {
      await append({ type: 'CHOOSE_NPC', combatantId: pick(view.prompt.choices).id });
      return;
    }
    if (fight.encounter.eventCount >= FIGHT_LENGTH && view.allowed.includes('END_COMBAT')) {
      await append({ type: 'END_COMBAT', outcome: 'Victory' });
      return;
    }
    const standing = view.order.filter((c) => c.status !== 'removed' && c.health);
    const roll = random();
    const hero = standing.find((c) => c.side === 'party' && c.health!.current > 0);
    if (roll < 0.02 && hero) {
      // Mortal Peril now and then, so injuries linked to events are written too.
      await append({ type: 'APPLY_DAMAGE', targetId: hero.id, amount: hero.health!.current, source: 'a falling beam' });
    } else if (roll < 0.35) {
      const target = standing.filter((c) => c.health!.current > 2);
      if (target.length) await append({ type: 'APPLY_DAMAGE', targetId: pick(target).id, amount: 1, source: 'a scratch' });
      else await append({ type: 'END_TURN' });
    } else if (roll < 0.6) {
      const hurt = standing.filter((c) => c.health!.current < c.health!.max);
      if (hurt.length) await append({ type: 'HEAL', targetId: pick(hurt).id, amount: 1, kind: 'other', source: 'a bandage' });
      else await append({ type: 'END_TURN' });
    } else if (roll < 0.68) {
      await append({ type: 'RAISE_ESCALATION', by: 1, source: 'war drums' });
    } else {
      await append({ type: 'END_TURN' });
    }
  }

  async function ledgerStep(): Promise<void> {
    const ledger = await call(app, 'ledger:append', { campaignId: campaign!.id, event: { type: 'ADVANCE_DAYS', days: 1 + Math.floor(random() * 3) } });
    say(`ledger ${campaign!.id} ${newestSeq(ledger)}`);
  }

  for (let refusedInARow = 0; ; ) {
    try {
      if (random() < 0.15) await ledgerStep();
      else await encounterStep();
      refusedInARow = 0;
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      say(`refused ${error.message}`);
      // A refusal changed nothing: re-read the fight so the next choice starts from what is stored.
      if (fight) fight = await call(app, 'encounters:get', { id: fight.encounter.id });
      if ((refusedInARow += 1) > 50) throw new Error(`The fight is stuck: ${error.message}`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`crash child: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
