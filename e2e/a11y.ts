// Every control on a screen must have an accessible name (a GM using a screen reader or voice control can reach it).
import { expect, type Page } from '@playwright/test';

const ROLES = ['button', 'link', 'textbox', 'combobox', 'checkbox', 'radio', 'spinbutton'] as const;

export async function expectEveryControlNamed(page: Page, screen: string): Promise<void> {
  for (const role of ROLES) {
    for (const control of await page.getByRole(role).all()) {
      if (!(await control.isVisible())) continue;
      await expect(control, `${screen}: a ${role} without an accessible name: ${await control.evaluate((el) => el.outerHTML.slice(0, 200))}`).toHaveAccessibleName(/\S/);
    }
  }
}
