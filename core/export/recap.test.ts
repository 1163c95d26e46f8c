// @vitest-environment jsdom
// The session recap in Markdown and HTML: the session's facts, each encounter with its totals, injuries gained and
// healed, the ledger, the notes line by line; empty sections said in words; hostile strings inert in both formats.
import { describe, expect, it } from 'vitest';
import { plainText, mdText } from './markdown.ts';
import { sessionHtml, sessionMarkdown, type SessionRecap } from './recap.ts';

function recap(text = (s: string) => s): SessionRecap {
  return {
    campaignName: text('Vault'),
    rulesetName: 'Enigma',
    exportedAt: '2026-11-21T09:00:00.000Z',
    session: { number: 2, title: text('The vault door'), date: '2026-11-20', notes: `${text('They found the key.')}\n\n${text('Next: the stairs.')}`, startDay: 3, endDay: 5 },
    encounters: [
      {
        name: text('First blood'), phase: 'ended', round: 2, outcome: text('Victory'), day: 3,
        summary: [
          { round: 1, measure: 'damage', combatants: [{ id: 'b', name: text('Berrik'), side: 'Party', dealt: 4, taken: 2, healed: 0, statuses: [], down: false }, { id: 'g', name: text('Goblin 1'), side: 'GM', dealt: 2, taken: 4, healed: 0, statuses: [], down: false }] },
          { round: 2, measure: 'damage', combatants: [{ id: 'b', name: text('Berrik'), side: 'Party', dealt: 5, taken: 0, healed: 1, statuses: [], down: false }, { id: 'g', name: text('Goblin 1'), side: 'GM', dealt: 0, taken: 5, healed: 0, statuses: ['defeated'], down: true }] },
        ],
      },
      { name: text('Ambush'), phase: 'setup', round: 0, outcome: null, day: 4, summary: [] },
    ],
    injuriesGained: [{ characterName: text('Berrik'), name: text('Sprained Ankle'), category: 'speed', day: 3, encounterName: text('First blood') }],
    injuriesHealed: [{ characterName: text('Berrik'), name: text('Cracked Rib'), day: 5 }],
    ledger: [{ day: 3, text: text('The vault door starts (2026-11-20) on day 3.') }, { day: 4, text: text('Berrik rests: +4 LP.') }],
  };
}

describe('the session recap in Markdown', () => {
  it('lists the facts, each encounter with its totals, injuries, the ledger and the notes', () => {
    const md = sessionMarkdown(recap());
    expect(md).toBe(
      [
        '# Session 2: The vault door',
        '',
        '- **Campaign:** Vault',
        '- **Ruleset:** Enigma',
        '- **Played on:** 2026-11-20',
        '- **In-game:** days 3–5',
        '- **Exported:** 2026-11-21T09:00:00.000Z',
        '',
        '## Encounters',
        '',
        '### First blood',
        '',
        'Outcome: Victory · Rounds: 2 · day 3',
        '',
        '| Combatant | Side | Damage dealt | Damage taken | Healed | Went down in |',
        '| --- | --- | ---: | ---: | ---: | --- |',
        '| Berrik | Party | 9 | 2 | 1 |  |',
        '| Goblin 1 | GM | 2 | 9 | 0 | round 2 |',
        '',
        '### Ambush',
        '',
        'Outcome: in preparation · Rounds: 0 · day 4',
        '',
        '*No rounds were fought.*',
        '',
        '## Injuries and wounds',
        '',
        '### Gained',
        '',
        '- Berrik: Sprained Ankle (speed), day 3, in “First blood”',
        '',
        '### Healed',
        '',
        '- Berrik: Cracked Rib, healed on day 5',
        '',
        '## Recovery and the clock',
        '',
        '- Day 3: The vault door starts (2026-11-20) on day 3.',
        '- Day 4: Berrik rests: +4 LP.',
        '',
        '## Notes',
        '',
        'They found the key.',
        '',
        'Next: the stairs.',
        '',
      ].join('\n'),
    );
  });

  it('says so when a section is empty, and when the session is still open', () => {
    const open: SessionRecap = { ...recap(), session: { ...recap().session, endDay: null, notes: '' }, encounters: [], injuriesGained: [], injuriesHealed: [], ledger: [] };
    const md = sessionMarkdown(open);
    expect(md).toContain('- **In-game:** from day 3 (the session is still open)');
    expect(md).toContain('## Encounters\n\n*No encounters in this session.*');
    expect(md).toContain('### Gained\n\n*None.*');
    expect(md).toContain('## Recovery and the clock\n\n*Nothing recorded.*');
    expect(md).not.toContain('## Notes');
  });
});

describe('the session recap in HTML', () => {
  it('is a CSP-guarded page with a chart and totals per encounter', () => {
    const doc = new DOMParser().parseFromString(sessionHtml(recap()), 'text/html');
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; img-src data:/);
    expect(doc.querySelector('h1')!.textContent).toBe('Session 2: The vault door');
    expect([...doc.querySelectorAll('h3')].map((h) => h.textContent)).toEqual(['First blood', 'Ambush', 'Gained', 'Healed']);
    expect(doc.querySelectorAll('svg.chart')).toHaveLength(1);
    expect(doc.querySelector('svg.chart title')!.id).toBe('encounter-1-title');
    expect([...doc.querySelectorAll('p.notes')].map((p) => p.textContent)).toEqual(['They found the key.', 'Next: the stairs.']);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
  });
});

describe('hostile strings in a recap', () => {
  const HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '| `x` | # y', 'x'.repeat(10_000)];
  for (const hostile of HOSTILE) {
    it(`stay text: ${JSON.stringify(hostile.slice(0, 32))}`, () => {
      const data = recap((s) => `${hostile} ${s}`);
      const md = sessionMarkdown(data);
      expect(md).not.toMatch(/<[a-z!/]/i);
      expect(md).not.toMatch(/(^|[^\\])`/m);
      expect(md).toContain(mdText(`${hostile} Berrik`));
      expect(md.match(/^# /gm)).toHaveLength(1);
      for (const row of md.split('\n').filter((l) => l.startsWith('| '))) expect(row.split(/(?<!\\)\|/)).toHaveLength(8);

      const doc = new DOMParser().parseFromString(sessionHtml(data), 'text/html');
      expect(doc.querySelectorAll('script, img, iframe')).toHaveLength(0);
      for (const element of doc.querySelectorAll('*')) for (const attribute of element.attributes) expect(attribute.name).not.toMatch(/^on/i);
      expect(doc.querySelector('h1')!.textContent).toBe(`Session 2: ${plainText(`${hostile} The vault door`)}`);
      expect([...doc.querySelectorAll('p.notes')].map((p) => p.textContent)).toEqual([plainText(`${hostile} They found the key.`), plainText(`${hostile} Next: the stairs.`)]);
    });
  }
});
