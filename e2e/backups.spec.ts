// The backups screen: a backup made on start, one made by hand, and a restore that brings back the earlier state.
import { expect, test } from '@playwright/test';
import { useServer } from './fixtures.ts';

const gmw = useServer('backups');

test('back up by hand, change something, restore', async ({ page }) => {
  const server = await gmw.start('backups.sqlite');
  await page.goto(server.launchUrl);
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Kept campaign');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: 'Kept campaign' })).toBeVisible();

  await page.getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('cell', { name: 'On start' })).toBeVisible();
  // The folder may hold other databases' backups: the screen says whose these are.
  await expect(page.getByText('These are the backups of backups.sqlite;')).toBeVisible();
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByRole('cell', { name: 'By hand' })).toBeVisible();

  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await page.getByRole('textbox', { name: 'Campaign name' }).fill('Made after the backup');
  await page.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByRole('heading', { name: 'Made after the backup' })).toBeVisible();

  await page.getByRole('link', { name: 'Backups' }).click();
  const byHand = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'By hand' }) });
  await byHand.getByRole('button', { name: /^Restore the backup of/ }).click();
  await page.getByRole('dialog', { name: 'Restore a backup' }).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('cell', { name: 'Before a restore' })).toBeVisible();

  await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Kept campaign' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Made after the backup' })).toHaveCount(0);
});
