// Preparing a fight without friction: "Add the whole party" adds the living and says whom it skipped and why, a
// dead party member shows why it cannot join instead of an Add button, and a single NPC copy is not numbered. The campaign (with Berrik dead after a first
// fight) is made through the real API; the preparing is done in Chromium as a GM would.
import { expect, test } from '@playwright/test';
import { apiOf, useServer } from './fixtures.ts';
import { expectAccessible } from './a11y.ts';

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
  await api('encounters:append', { id: first.id, event: { type: 'RESOLVE_PERIL', combatantId: berrikId, choice: 'sacrifice', costText: 'holds the gate' } });
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
  // The rows can be dragged once the fixed order is written (the rows show it: draggable, "movable").
  await expect(gm.getByRole('listitem').filter({ hasText: 'Goblin' })).toHaveClass(/movable/);
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

// Each copy of a template with its own name and pool, before the fight: the GM opens "Names and HP" under the
// template, renames one copy and lowers another's HP, and adds them with Enter. An impossible HP is refused under
// the row, on that copy's field, and adds nothing. The runner then shows the names and pools.
test('each copy of a template gets its own name and pool before the fight', async ({ page, request }) => {
  const server = await gmw.start('prepare-copies.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Marsh', rulesetId: 'cairn-errant' });
  const wren = await api<Row>('characters:create', { campaignId: campaign.id, role: 'pc', name: 'Wren', sheet: {} });
  await api<Row>('characters:create', { campaignId: campaign.id, role: 'npc', name: 'Goblin', sheet: { hpMax: 5, hp: 5 } });
  const fight = await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Reeds' });
  await api('encounters:addFromCampaign', { id: fight.id, pcIds: [wren.id], npcs: [] });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Marsh' }).click();
  await page.getByRole('link', { name: /Reeds/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Prepare: Reeds' })).toBeVisible();

  const goblins = page.getByRole('form', { name: 'Add copies of Goblin' });
  const gm = page.getByRole('list', { name: 'GM side' });
  await goblins.getByRole('spinbutton', { name: 'How many Goblin' }).fill('3');
  // By keyboard: the summary opens with Enter, the fields show the defaults the app would give.
  await goblins.getByText('Names and HP').focus();
  await page.keyboard.press('Enter');
  const name = (i: number) => goblins.getByRole('textbox', { name: `Name of Goblin copy ${i}` });
  const hp = (i: number) => goblins.getByRole('spinbutton', { name: `HP of Goblin copy ${i}` });
  await expect(name(1)).toHaveValue('Goblin 1');
  await expect(name(3)).toHaveValue('Goblin 3');
  await expect(hp(2)).toHaveValue('5');

  // 30 HP is more than Cairn-Errant allows: the sentence sits under the row, on that copy's field; nothing is added.
  await hp(3).fill('30');
  await hp(3).press('Enter');
  const sentence = 'Goblin 3: 30 is not a possible HP: from 0 to 20.';
  await expect(goblins.getByRole('alert')).toHaveText(sentence);
  await expect(hp(3)).toHaveAttribute('aria-invalid', 'true');
  await expect(hp(3)).toHaveAccessibleDescription(sentence);
  await expect(gm.getByRole('listitem')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/prepare-copies-refused.png' });
  await expectAccessible(page, 'prepare, a copy refused');

  await name(2).fill('Snaga');
  await hp(3).fill('2');
  await expect(goblins.getByRole('alert')).toHaveCount(0);
  await hp(3).press('Enter');
  await expect.poll(() => gm.locator('.name').allTextContents()).toEqual(['Goblin 1', 'Snaga', 'Goblin 3']);
  await expect(gm.getByRole('listitem').filter({ hasText: 'Snaga' })).toContainText('5 HP');
  await expect(gm.getByRole('listitem').filter({ hasText: 'Goblin 3' })).toContainText('2 HP');
  // The fields go back to the next copies' defaults.
  await expect(name(1)).toHaveValue('Goblin 2');
  await page.screenshot({ path: '/tmp/prepare-copies.png' });

  await page.getByRole('button', { name: 'Start combat ▸' }).click();
  const pool = (who: string) => page.getByRole('listitem', { name: new RegExp(`^(\\d+\\. )?${who},`) }).locator('.pool .figures');
  await expect(pool('Goblin 1')).toHaveText('HP 5/5');
  await expect(pool('Snaga')).toHaveText('HP 5/5');
  await expect(pool('Goblin 3')).toHaveText('HP 2/2');
  await page.screenshot({ path: '/tmp/prepare-copies-runner.png' });
});

// A typed NPC's refusal sits under the field it concerns (Enigma's LP is a die: 30 is none), not in a toast.
test('a typed NPC refused for its pool says so under the pool field', async ({ page, request }) => {
  const server = await gmw.start('prepare-typed-refusal.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Fen', rulesetId: 'enigma' });
  await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Mist' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Fen' }).click();
  await page.getByRole('link', { name: /Mist/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Prepare: Mist' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Or type one in place' });
  const pool = form.getByRole('spinbutton', { name: 'LP (Endure die)' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Fen Hag');
  await pool.fill('30');
  await pool.press('Enter');
  const sentence = 'Fen Hag: 30 is not a possible LP (Endure die): one of 4, 6, 8, 10 or 12.';
  await expect(form.getByRole('alert')).toHaveText(sentence);
  await expect(pool).toHaveAttribute('aria-invalid', 'true');
  await expect(pool).toHaveAccessibleDescription(sentence);
  await expect(form.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.toast')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'GM side' }).getByRole('listitem')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/prepare-typed-refused.png' });
  await expectAccessible(page, 'prepare, a typed NPC refused');

  // Changing the pool takes the sentence away; a die size is added.
  await pool.fill('10');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(pool).not.toHaveAttribute('aria-invalid', 'true');
  await pool.press('Enter');
  await expect(page.getByRole('list', { name: 'GM side' })).toContainText('Fen Hag');

  // A name already in the fight: the sentence goes under the name instead.
  await form.getByRole('textbox', { name: 'Name' }).fill('Fen Hag');
  await form.getByRole('button', { name: 'Add NPC' }).click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription('Fen Hag is already in this encounter: choose another name.');
  await expect(pool).not.toHaveAttribute('aria-invalid', 'true');
});

// `?` on the prepare screen opens the sheet of its keys; Esc closes it and focus goes back.
test('? opens the prepare screen\'s shortcut sheet', async ({ page, request }) => {
  const server = await gmw.start('prepare-sheet.sqlite');
  const api = apiOf(request, server);
  const campaign = await api<Row>('campaigns:create', { name: 'The Moor', rulesetId: 'teams' });
  await api<Row>('encounters:create', { campaignId: campaign.id, name: 'Standing stones' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'The Moor' }).click();
  await page.getByRole('link', { name: /Standing stones/ }).first().click();
  await expect(page.getByRole('heading', { name: 'Prepare: Standing stones' })).toBeVisible();

  // A ? typed into a field is typed, not a shortcut.
  const name = page.getByRole('form', { name: 'Or type one in place' }).getByRole('textbox', { name: 'Name' });
  await name.fill('Who');
  await name.press('?');
  await expect(name).toHaveValue('Who?');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const start = page.getByRole('button', { name: 'Start combat ▸' });
  await page.getByRole('link', { name: 'The Moor' }).focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: /^Keyboard shortcuts — / });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('region', { name: 'Adding' }).getByRole('term').filter({ hasText: /^Enter$/ })).toHaveCount(1);
  await expect(sheet.getByRole('definition').filter({ hasText: 'Undo the last change to the roster' })).toBeVisible();
  await expect(sheet.getByRole('button', { name: /Close/ })).toBeFocused();
  await page.screenshot({ path: '/tmp/prepare-sheet.png' });
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await expect(page.getByRole('link', { name: 'The Moor' })).toBeFocused();
  await expect(start).toBeVisible();
});
