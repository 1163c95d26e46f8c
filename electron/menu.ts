// The application menu, as a plain template so a test can read it. Deliberately no undo/redo roles: the
// renderer's own shortcuts undo and redo encounter events, and a menu accelerator on Ctrl+Z would swallow them.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  isPackaged: boolean;
  isMac: boolean;
  showAbout: () => void;
}

export function buildMenuTemplate({ isPackaged, isMac, showAbout }: MenuOptions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    { label: '&File', submenu: [{ role: 'quit' }] },
    {
      label: '&Edit',
      submenu: [{ role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { type: 'separator' }, { role: 'selectAll' }],
    },
    { label: '&View', submenu: view },
    { label: '&Help', submenu: [{ label: 'About GM Workstation', click: showAbout }] },
  ];
}
