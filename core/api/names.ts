// Handler names alone, with no dependencies, so the preload bundle can allow-list them without zod.
export const HANDLER_NAMES = [
  'app:info',
  'campaigns:list', 'campaigns:create', 'campaigns:get', 'campaigns:rename', 'campaigns:archive', 'campaigns:setOptions',
  'characters:create', 'characters:update', 'characters:archive',
  'encounters:create', 'encounters:get', 'encounters:addFromCampaign', 'encounters:append', 'encounters:preview', 'encounters:undo', 'encounters:redo',
  'encounters:carryPreview',
  'ledger:get', 'ledger:append', 'ledger:preview', 'ledger:undo', 'ledger:redo', 'sessions:update',
  'campaigns:timeline', 'characters:history',
  'backups:list', 'backups:create', 'backups:restore',
] as const;

export type HandlerName = (typeof HANDLER_NAMES)[number];

export const isHandlerName = (name: unknown): name is HandlerName =>
  typeof name === 'string' && (HANDLER_NAMES as readonly string[]).includes(name);

/** The one push channel: main tells the renderer what changed; the renderer re-fetches what it shows. */
export const CHANGED_CHANNEL = 'app:changed';

export interface ChangeNotice {
  area: 'campaigns' | 'encounters' | 'backups' | 'ledger';
  id: string;
  /** The changed thing's version (an encounter's updatedAt), so a screen that already shows it need not re-fetch. */
  version?: string;
}
