// Bringing a table's data from another tracker into an Any system campaign, as a GM does it: open the panel, pick
// the kind of file and the file, read what was added; a file that is not what it claims is refused in the panel with
// a sentence, and the campaign is as it was. The keyboard alone reaches every control.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { apiOf, useServer } from './fixtures.ts';

const servers = useServer('table-import');
const samples = join(import.meta.dirname, '../core/rulesets/any-system/import/samples');
const sample = (name: string) => ({ name, mimeType: 'text/plain', buffer: readFileSync(join(samples, name)) });

test('an Improved Initiative export and an Obsidian note fill an Any system campaign; a bad CSV writes nothing', async ({ page, request }) => {
  const server = await servers.start('import.sqlite');
  const api = apiOf(request, server);
  const info = await api<{ rulesets: { id: string }[] }>('app:info', {});
  const rulesets = await Promise.all(info.rulesets.map(({ id }) => api<{ id: string; readers: unknown[] }>('rulesets:get', { id })));
  const anySystem = rulesets.find((r) => r.readers.length > 0)!;
  const campaign = await api<{ id: string }>('campaigns:create', { name: 'Saltmarsh', rulesetId: anySystem.id });

  await page.goto(server.launchUrl);
  await page.getByRole('link', { name: 'Saltmarsh' }).click();
  const panel = page.locator('details', { hasText: "Bring your table's data" });
  await panel.locator('summary').click();

  // Improved Initiative's "Export all" file: the party, the templates and a prepared encounter.
  await panel.getByLabel('Kind of file', { exact: true }).selectOption({ label: 'Improved Initiative (JSON)' });
  await panel.getByLabel('File to import').setInputFiles(sample('improved-initiative-export.json'));
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  const result = panel.getByRole('status');
  await expect(result).toContainText('From Improved Initiative: 1 party member and 2 NPC templates added, and 1 encounter prepared.');
  await expect(page.getByRole('region', { name: 'Party' }).getByRole('link', { name: 'Ada the Bold', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'NPC templates' }).getByRole('link', { name: 'Goblin Boss', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Encounters' }).getByRole('link', { name: 'Ambush at the ford' })).toBeVisible();
  await expectAccessible(page, 'campaign home with the import panel open');

  // An Obsidian note, by keys alone: Tab to the kind of file, pick it, the file, then Enter on Import.
  await panel.getByLabel('Kind of file', { exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(panel.getByLabel('Kind of file', { exact: true })).toHaveValue('obsidian-initiative-tracker');
  await panel.getByLabel('File to import').setInputFiles(sample('obsidian-note.md'));
  await panel.getByLabel('File to import').focus();
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Import', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(result).toContainText('From Obsidian Initiative Tracker: 2 party members and 5 NPC templates added, and 3 encounters prepared.');
  // The wolf came with the first file: kept, not doubled.
  await expect(result).toContainText('Already here, kept as they were: Wolf.');
  await expect(result).toContainText('Check before the fight:');
  await expect(result.getByRole('listitem').filter({ hasText: '“1d4” is a roll' })).toBeVisible();

  // A CSV with a 10,000-character name: the sentence says where, and nothing more is in the campaign.
  const before = await api<{ characters: unknown[]; encounters: unknown[] }>('campaigns:get', { id: campaign.id });
  await panel.getByLabel('Kind of file', { exact: true }).selectOption({ label: 'CSV (name, initiative modifier, HP, notes)' });
  await panel.getByLabel('File to import').setInputFiles({ name: 'roster.csv', mimeType: 'text/csv', buffer: Buffer.from(`Name,HP\nGoblin,7\n${'N'.repeat(10_000)},7\n`) });
  await panel.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(panel.getByRole('alert')).toHaveText(/^Row 3 has a name of 10,000 characters \(“N+…”\); a name is at most 80\.$/);
  const after = await api<{ characters: unknown[]; encounters: unknown[] }>('campaigns:get', { id: campaign.id });
  expect([after.characters.length, after.encounters.length]).toEqual([before.characters.length, before.encounters.length]);
  await expect(page.getByText(/at .*\.ts:\d+|TypeError|stack/)).toHaveCount(0);
});
