// A session recap: what one game session held — its encounters with their figures, the injuries and wounds gained
// and healed, the recovery and clock entries of the ledger, and the GM's notes — as Markdown or as one printable
// HTML page. The same escaping as the encounter exports applies to every string a person typed.
import type { SessionSummary } from '../api/contract.ts';
import { outcomeText } from './encounter.ts';
import { chartHtml, factsHtml, htmlPage, htmlText, totalsTableHtml } from './html.ts';
import { mdText, totalsTableMd } from './markdown.ts';
import type { RoundSummary } from './types.ts';

export interface SessionRecap {
  campaignName: string;
  rulesetName: string;
  exportedAt: string;
  session: Pick<SessionSummary, 'number' | 'title' | 'date' | 'notes' | 'startDay' | 'endDay'>;
  encounters: {
    name: string;
    phase: 'setup' | 'running' | 'ended';
    round: number;
    outcome: string | null;
    day: number | null;
    summary: RoundSummary[];
  }[];
  injuriesGained: { characterName: string; name: string; category: string; day: number | null; encounterName: string | null }[];
  injuriesHealed: { characterName: string; name: string; day: number | null }[];
  /** The ledger entries of the session that stand (undone ones are left out), oldest first. */
  ledger: { day: number; text: string }[];
}

const heading = (recap: SessionRecap) => `Session ${recap.session.number}: ${recap.session.title}`;

const days = ({ startDay, endDay }: SessionRecap['session']) =>
  endDay === null ? `from day ${startDay} (the session is still open)` : startDay === endDay ? `day ${startDay}` : `days ${startDay}–${endDay}`;

const dayText = (day: number | null) => (day === null ? '' : `day ${day}`);

function gainedText(g: SessionRecap['injuriesGained'][number]): string {
  return `${g.characterName}: ${g.name} (${g.category})${g.day !== null ? `, ${dayText(g.day)}` : ''}${g.encounterName ? `, in “${g.encounterName}”` : ''}`;
}

function healedText(h: SessionRecap['injuriesHealed'][number]): string {
  return `${h.characterName}: ${h.name}${h.day !== null ? `, healed on ${dayText(h.day)}` : ''}`;
}

const encounterLine = (e: SessionRecap['encounters'][number]) =>
  `Outcome: ${outcomeText(e.phase, e.round, e.outcome)} · Rounds: ${e.round}${e.day !== null ? ` · ${dayText(e.day)}` : ''}`;

/** The notes as typed, one paragraph per non-empty line. */
const noteLines = (notes: string) => notes.split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean);

export function sessionMarkdown(recap: SessionRecap): string {
  const out: string[] = [
    `# ${mdText(heading(recap))}`,
    '',
    `- **Campaign:** ${mdText(recap.campaignName)}`,
    `- **Ruleset:** ${mdText(recap.rulesetName)}`,
    `- **Played on:** ${mdText(recap.session.date)}`,
    `- **In-game:** ${mdText(days(recap.session))}`,
    `- **Exported:** ${mdText(recap.exportedAt)}`,
    '',
    '## Encounters',
  ];
  if (recap.encounters.length === 0) out.push('', '*No encounters in this session.*');
  for (const e of recap.encounters) {
    out.push('', `### ${mdText(e.name)}`, '', mdText(encounterLine(e)));
    out.push('', e.summary.length ? totalsTableMd(e.summary) : '*No rounds were fought.*');
  }
  out.push('', '## Injuries and wounds', '', '### Gained', '');
  out.push(...(recap.injuriesGained.length ? recap.injuriesGained.map((g) => `- ${mdText(gainedText(g))}`) : ['*None.*']));
  out.push('', '### Healed', '');
  out.push(...(recap.injuriesHealed.length ? recap.injuriesHealed.map((h) => `- ${mdText(healedText(h))}`) : ['*None.*']));
  out.push('', '## Recovery and the clock', '');
  out.push(...(recap.ledger.length ? recap.ledger.map((l) => `- ${mdText(`Day ${l.day}: ${l.text}`)}`) : ['*Nothing recorded.*']));
  const notes = noteLines(recap.session.notes);
  if (notes.length) out.push('', '## Notes', '', notes.map(mdText).join('\n\n'));
  return `${out.join('\n')}\n`;
}

export function sessionHtml(recap: SessionRecap): string {
  const list = (items: string[], empty: string) => (items.length ? `<ul class="items">${items.map((i) => `<li>${htmlText(i)}</li>`).join('')}</ul>` : `<p class="muted">${htmlText(empty)}</p>`);
  const body: string[] = [
    '<header>',
    `<h1>${htmlText(heading(recap))}</h1>`,
    '<p class="muted">Session recap from GM Workstation</p>',
    factsHtml([
      ['Campaign', recap.campaignName],
      ['Ruleset', recap.rulesetName],
      ['Played on', recap.session.date],
      ['In-game', days(recap.session)],
      ['Exported', recap.exportedAt],
    ]),
    '</header>',
    '<section>',
    '<h2>Encounters</h2>',
  ];
  if (recap.encounters.length === 0) body.push('<p class="muted">No encounters in this session.</p>');
  recap.encounters.forEach((e, i) => {
    body.push(
      '<section class="round">',
      `<h3>${htmlText(e.name)}</h3>`,
      `<p>${htmlText(encounterLine(e))}</p>`,
      e.summary.length ? `${chartHtml(e.summary, `encounter-${i + 1}`)}${totalsTableHtml(e.summary)}` : '<p class="muted">No rounds were fought.</p>',
      '</section>',
    );
  });
  body.push(
    '</section>',
    '<section>',
    '<h2>Injuries and wounds</h2>',
    '<h3>Gained</h3>',
    list(recap.injuriesGained.map(gainedText), 'None.'),
    '<h3>Healed</h3>',
    list(recap.injuriesHealed.map(healedText), 'None.'),
    '</section>',
    '<section>',
    '<h2>Recovery and the clock</h2>',
    list(recap.ledger.map((l) => `Day ${l.day}: ${l.text}`), 'Nothing recorded.'),
    '</section>',
  );
  const notes = noteLines(recap.session.notes);
  if (notes.length) body.push('<section>', '<h2>Notes</h2>', ...notes.map((n) => `<p class="notes">${htmlText(n)}</p>`), '</section>');
  return htmlPage(`${heading(recap)} — ${recap.campaignName}`, body.join('\n'));
}
