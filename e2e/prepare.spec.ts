// Preparing a fight without friction: "Add the whole party" adds the living and says whom it skipped and why, a
// dead party member shows why it cannot join instead of an Add button, and a single NPC copy is not numbered. The campaign (with Berrik dead after a first
// fight) is made through the real API; the preparing is done in Chromium as a GM would.
import { expect, test } from '@playwright/test';
import { apiOf, useServer } from './fixtures.ts';

const gmw = useServer('prepare');


type Row = { id: string; name: string };

test('the whole party joins but the dead, who are named with why', async ({ page, request }) => {
  const server = await gmw.start('prepare.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Drowned Vault', rulesetId: 'enigma' });
  const pc = (name: string) => api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: {} });
  await pc('Ash');
  const berrik = await pc('Berrik');
  await pc('Cato');
  const goblin = await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: {} });
  // Berrik falls in a first fight: a Sacrifice.
  const first = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'At the ford' });
  await api('encounters:addFromCampaign', { id: first.id, pcIds: [berrik.id], npcs: [{ templateId: goblin.id, count: 1 }] });
  const started = await api<{ view: { order: Row[] } }>('encounters:append', { id: first.id, event: { type: 'START' } });
  const berrikId = started.view.order.find((c) => c.name === 'Berrik')!.id;
  await api('encounters:append', { id: first.id, event: { type: 'APPLY_DAMAGE', targetId: berrikId, amount: 20, source: 'trap' } });
  await api('encounters:append', { id: first.id, event: { type: 'RESOLVE_PERIL', id: berrikId, choice: 'sacrifice', costText: 'holds the gate' } });
  await api('encounters:append', { id: first.id, event: { type: 'END_COMBAT', outcome: 'Pyrrhic' } });

  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Drowned Vault' }).click();
  await page.getByRole('textbox', { name: 'Encounter name' }).fill('Into the vault');
  await page.getByRole('button', { name: 'Prepare encounter' }).click();
  await expect(page.getByRole('heading', { name: 'Prepare: Into the vault' })).toBeVisible();

  const picks = page.getByRole('region', { name: 'Party members' });
  await expect(picks.getByRole('listitem').filter({ hasText: 'Berrik' })).toContainText('Dead: cannot join a fight');
  await expect(picks.getByRole('button', { name: 'Add Berrik' })).toHaveCount(0);
  await picks.getByRole('button', { name: 'Add the whole party' }).click();
  const party = page.getByRole('list', { name: 'Party order' });
  await expect(party.getByRole('listitem')).toHaveCount(2);
  await expect(party).toContainText('Ash');
  await expect(party).toContainText('Cato');
  await expect(picks.getByRole('status')).toHaveText('Skipped Berrik (dead: cannot join a fight).');
  await page.screenshot({ path: '/tmp/prepare-whole-party.png' });

  // A single Goblin keeps its name; a second added later is Goblin 2.
  const gm = page.getByRole('list', { name: 'GM side' });
  await page.getByRole('button', { name: 'Add Goblin' }).click();
  await expect(gm.getByRole('listitem')).toHaveCount(1);
  await expect(gm.getByText('Goblin', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add Goblin' }).click();
  await expect(gm.getByRole('listitem')).toHaveCount(2);
  await expect(gm.getByText('Goblin', { exact: true })).toBeVisible();
  await expect(gm.getByText('Goblin 2', { exact: true })).toBeVisible();
  await expect(gm.getByText('Goblin 1', { exact: true })).toHaveCount(0);
});

// Drag to reorder: a row of the party order or of a fixed GM order dragged onto another takes its place, the same
// SET_PARTY_ORDER / SET_GM_ORDER event the ▲▼ buttons send, so the order survives a reload.
test('the order of battle is reordered by dragging a row', async ({ page, request }) => {
  const server = await gmw.start('prepare-drag.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Salt Road', rulesetId: 'enigma' });
  const pcIds: string[] = [];
  for (const name of ['Ash', 'Berrik', 'Cato']) pcIds.push((await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name, sheet: {} })).id);
  const npcs: { templateId: string; count: number }[] = [];
  for (const name of ['Goblin', 'Ogre', 'Wolf']) npcs.push({ templateId: (await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name, sheet: {} })).id, count: 1 });
  const fight = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Ambush at the well' });
  await api('encounters:addFromCampaign', { id: fight.id, pcIds, npcs });

  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Salt Road' }).click();
  await page.getByRole('link', { name: /Ambush at the well/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Prepare: Ambush at the well' })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  const party = page.getByRole('list', { name: 'Party order' });
  const names = (list: typeof party) => list.locator('.name').allTextContents();
  await expect.poll(() => names(party)).toEqual(['Ash', 'Berrik', 'Cato']);
  // Cato dragged up onto Ash takes the first place; Ash dragged down onto Berrik takes his.
  await party.getByRole('listitem').filter({ hasText: 'Cato' }).dragTo(party.getByRole('listitem').filter({ hasText: 'Ash' }));
  await expect.poll(() => names(party)).toEqual(['Cato', 'Ash', 'Berrik']);
  await party.getByRole('listitem').filter({ hasText: 'Ash' }).dragTo(party.getByRole('listitem').filter({ hasText: 'Berrik' }));
  await expect.poll(() => names(party)).toEqual(['Cato', 'Berrik', 'Ash']);

  const gm = page.getByRole('list', { name: 'GM side' });
  await page.getByRole('radio', { name: 'Fixed order' }).check();
  await expect.poll(() => names(gm)).toEqual(['Goblin', 'Ogre', 'Wolf']);
  // While Goblin is dragged over Wolf, a line under Wolf shows where it will land.
  await gm.getByRole('listitem').filter({ hasText: 'Goblin' }).hover();
  await page.mouse.down();
  const wolf = (await gm.getByRole('listitem').filter({ hasText: 'Wolf' }).boundingBox())!;
  await page.mouse.move(wolf.x + wolf.width / 3, wolf.y + wolf.height / 2, { steps: 5 });
  await page.mouse.move(wolf.x + wolf.width / 3 + 4, wolf.y + wolf.height / 2, { steps: 2 });
  await expect(gm.getByRole('listitem').filter({ hasText: 'Wolf' })).toHaveClass(/drop-after/);
  await page.screenshot({ path: '/tmp/prepare-dragging.png' });
  await page.mouse.up();
  await expect.poll(() => names(gm)).toEqual(['Ogre', 'Wolf', 'Goblin']);
  // A party row dropped on the GM side changes nothing.
  await party.getByRole('listitem').filter({ hasText: 'Cato' }).dragTo(gm.getByRole('listitem').filter({ hasText: 'Ogre' }));
  await expect.poll(() => names(party)).toEqual(['Cato', 'Berrik', 'Ash']);
  await expect.poll(() => names(gm)).toEqual(['Ogre', 'Wolf', 'Goblin']);
  await page.screenshot({ path: '/tmp/prepare-drag.png' });

  // The ▲▼ buttons still move a row, for the keyboard.
  await party.getByRole('button', { name: 'Move Ash up' }).click();
  await expect.poll(() => names(party)).toEqual(['Cato', 'Ash', 'Berrik']);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Prepare: Ambush at the well' })).toBeVisible();
  await expect.poll(() => names(party)).toEqual(['Cato', 'Ash', 'Berrik']);
  await expect.poll(() => names(gm)).toEqual(['Ogre', 'Wolf', 'Goblin']);
});

// An NPC typed in place, without a template: its name, side and main pool (Cairn-Errant's HP here); an impossible
// pool is refused with a sentence and adds nothing.
test('an NPC typed in place joins with its name, side and pool', async ({ page, request }) => {
  const server = await gmw.start('prepare-typed.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Barrow', rulesetId: 'cairn-errant' });
  await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: {} });
  await api<Row>('encounters:create', { campaignId: campaign.id, name: 'The barrow door' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Barrow' }).click();
  await page.getByRole('link', { name: /The barrow door/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Prepare: The barrow door' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Or type one in place' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Barrow Wight');
  await form.getByRole('spinbutton', { name: 'HP' }).fill('30');
  await form.getByRole('button', { name: 'Add NPC' }).click();
  await expect(page.getByText('Barrow Wight: 30 is not a possible HP: from 0 to 20.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'GM side' }).getByRole('listitem')).toHaveCount(0);

  await form.getByRole('spinbutton', { name: 'HP' }).fill('9');
  await form.getByRole('button', { name: 'Add NPC' }).click();
  const gm = page.getByRole('list', { name: 'GM side' });
  await expect(gm.getByRole('listitem')).toHaveCount(1);
  await expect(gm.getByRole('listitem')).toContainText('Barrow Wight');
  await expect(gm.getByRole('listitem')).toContainText('9 HP');
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('');
  await page.screenshot({ path: '/tmp/prepare-typed.png' });

  // On the party side too (a hireling), and the fight starts with both.
  await form.getByRole('textbox', { name: 'Name' }).fill('Torchbearer');
  await form.getByRole('combobox', { name: 'Side' }).selectOption({ index: 0 });
  await form.getByRole('button', { name: 'Add NPC' }).click();
  await expect(page.getByRole('list', { name: 'Party order' })).toContainText('Torchbearer');
  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  await expect(page.getByText('Barrow Wight').first()).toBeVisible();
});
