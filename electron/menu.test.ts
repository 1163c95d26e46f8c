import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate } from './menu.ts';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

const roles = (items: MenuItemConstructorOptions[]) => flatten(items).map((item) => item.role).filter(Boolean);

describe('application menu', () => {
  for (const isMac of [false, true]) {
    it(`leaves Ctrl/Cmd+Z and redo to the renderer's own undo (${isMac ? 'macOS' : 'Windows/Linux'})`, () => {
      const template = buildMenuTemplate({ isPackaged: true, isMac, showAbout: vi.fn() });
      const all = roles(template).map((role) => String(role).toLowerCase());
      expect(all).not.toContain('undo');
      expect(all).not.toContain('redo');
      expect(all).not.toContain('editmenu'); // the stock Edit menu brings undo/redo with it
      for (const item of flatten(template)) expect(item.accelerator ?? '', item.label).not.toMatch(/\+(Z|Y)$/i);
    });
  }

  it('has Quit, the clipboard roles and the zoom roles', () => {
    const all = roles(buildMenuTemplate({ isPackaged: true, isMac: false, showAbout: vi.fn() }));
    expect(all).toEqual(expect.arrayContaining(['quit', 'cut', 'copy', 'paste', 'selectAll', 'reload', 'resetZoom', 'zoomIn', 'zoomOut']));
  });

  it('offers developer tools only when not packaged', () => {
    expect(roles(buildMenuTemplate({ isPackaged: true, isMac: false, showAbout: vi.fn() }))).not.toContain('toggleDevTools');
    expect(roles(buildMenuTemplate({ isPackaged: false, isMac: false, showAbout: vi.fn() }))).toContain('toggleDevTools');
  });

  it('opens About from the Help menu', () => {
    const showAbout = vi.fn();
    const help = buildMenuTemplate({ isPackaged: true, isMac: false, showAbout }).find((item) => item.label === '&Help');
    const about = (help?.submenu as MenuItemConstructorOptions[]).find((item) => item.label === 'About GM Workstation');
    (about?.click as () => void)();
    expect(showAbout).toHaveBeenCalledTimes(1);
  });
});
