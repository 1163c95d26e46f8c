// Exports are safe to open: an encounter and a session recap whose names and texts are hostile are exported as HTML
// through the real web-mode server, the export's own Content-Security-Policy is REMOVED, and the page is loaded in
// Chromium. Nothing may run: no flag set by an onerror/onload/script payload, no dialog, no script or image element.
// A control page with one unescaped payload proves the same checks do catch a script that runs.
import { expect, test, type BrowserContext } from '@playwright/test';
import { apiOf, useServer } from './fixtures.ts';

const gmw = useServer('export-safety');

/** Each payload would set `window.pwned` (or open a dialog) if it ever became markup. Each fits the 80-character names. */
const HOSTILE = {
  campaign: '<script>window.pwned = "campaign"; alert(1)</script>',
  pc: '"><img src=x onerror="window.pwned=\'pc\';alert(1)">',
  npc: "'><svg onload=\"window.pwned='npc'\">",
  encounter: '</title><script>window.pwned="title"</script>',
  source: '<img src=x onerror=window.pwned="source">',
  outcome: '<iframe srcdoc="<script>parent.pwned=1</script>"></iframe>',
  session: '</style><script>window.pwned="session"</script>',
  notes: '<body onload="window.pwned=\'notes\'">\n<script>alert("notes")</script>',
};


/** Loads the page without its CSP in a fresh tab (so nothing carries over from another page) and reports what ran. */
async function openWithoutCsp(context: BrowserContext, html: string) {
  const page = await context.newPage();
  const stripped = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
  expect(stripped).not.toContain('Content-Security-Policy');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.setContent(stripped, { waitUntil: 'load' });
  // Give an image error or a late handler the time to fire.
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => ({
    pwned: (window as unknown as { pwned?: unknown }).pwned ?? null,
    elements: document.querySelectorAll('script, img, iframe, object, embed').length,
    handlers: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.localName}[${a.name}]`)),
  }));
  return { page, ran: { ...found, dialogs } };
}

test('HTML exports with hostile names run nothing in Chromium, even with their CSP removed', async ({ context, request }) => {
  const server = await gmw.start('export-safety.sqlite');
  const api = apiOf(request, server);

  // The checks below can fail: one unescaped payload sets the flag and opens a dialog.
  const { ran: control } = await openWithoutCsp(context, '<!doctype html><p>control</p><img src=x onerror="window.pwned=\'control\';alert(\'control\')">');
  expect(control.pwned).toBe('control');
  expect(control.dialogs).toEqual(['control']);

  const campaign = await api<{ id: string }>('campaigns:create', { name: HOSTILE.campaign, rulesetId: 'enigma' });
  const pc = await api<{ id: string }>('characters:create', { campaignId: campaign.id, role: 'pc', name: HOSTILE.pc, sheet: {} });
  const npc = await api<{ id: string }>('characters:create', { campaignId: campaign.id, role: 'npc', name: HOSTILE.npc, sheet: {} });
  const encounter = await api<{ id: string }>('encounters:create', { campaignId: campaign.id, name: HOSTILE.encounter });
  const added = await api<{ view: { order: { id: string }[] } }>('encounters:addFromCampaign', { id: encounter.id, pcIds: [pc.id], npcs: [{ templateId: npc.id, count: 1 }] });
  const [hero, foe] = added.view.order.map((c) => c.id);
  const append = (event: unknown) => api('encounters:append', { id: encounter.id, event });
  await append({ type: 'START' });
  await append({ type: 'APPLY_DAMAGE', targetId: foe, amount: 3, source: HOSTILE.source });
  await append({ type: 'ATTACK', attackerId: hero, targetId: foe, mode: 'melee', sight: 'clear', damage: 'full' });
  await append({ type: 'APPLY_DAMAGE', targetId: hero, amount: 2, source: HOSTILE.source });
  await append({ type: 'END_COMBAT', outcome: HOSTILE.outcome });

  const file = await api<{ filename: string; mime: string; content: string }>('exports:encounter', { id: encounter.id, format: 'html' });
  expect(file.mime).toBe('text/html');
  expect(file.filename).toMatch(/^[a-z0-9-]+\.html$/);
  const { page, ran } = await openWithoutCsp(context, file.content);
  expect(ran).toEqual({ pwned: null, elements: 0, handlers: [], dialogs: [] });
  // The names are there, as text.
  await expect(page.locator('h1')).toHaveText(HOSTILE.encounter);
  await expect(page.locator('dl.facts')).toContainText(HOSTILE.campaign);
  await expect(page.locator('dl.facts')).toContainText(HOSTILE.outcome);
  await expect(page.locator('section.round').last()).toContainText(HOSTILE.source);
  await expect(page.locator('ul.legend')).toContainText(HOSTILE.pc);
  expect(await page.title()).toBe(`${HOSTILE.encounter} — encounter log`);

  const sessionId = (await api<{ session: { id: string } }>('ledger:get', { campaignId: campaign.id })).session.id;
  await api('sessions:update', { id: sessionId, title: HOSTILE.session, notes: HOSTILE.notes });
  const recap = await api<{ content: string }>('exports:session', { id: sessionId, format: 'html' });
  const { page: recapPage, ran: recapRan } = await openWithoutCsp(context, recap.content);
  expect(recapRan).toEqual({ pwned: null, elements: 0, handlers: [], dialogs: [] });
  await expect(recapPage.locator('h1')).toHaveText(`Session 1: ${HOSTILE.session}`);
  await expect(recapPage.locator('p.notes').last()).toHaveText('<script>alert("notes")</script>');
});
