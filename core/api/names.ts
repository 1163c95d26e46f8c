// Handler names alone, with no dependencies, so the preload bundle can allow-list them without zod.
export const HANDLER_NAMES = [
  'app:info', 'rulesets:get',
  'campaigns:list', 'campaigns:create', 'campaigns:get', 'campaigns:rename', 'campaigns:archive', 'campaigns:setOptions', 'campaigns:setConditions',
  'characters:create', 'characters:update', 'characters:archive',
  'encounters:create', 'encounters:get', 'encounters:log', 'encounters:logPage', 'encounters:addFromCampaign', 'encounters:append', 'encounters:preview', 'encounters:undo', 'encounters:redo',
  'encounters:carryPreview',
  'ledger:get', 'ledger:append', 'ledger:preview', 'ledger:undo', 'ledger:redo', 'sessions:update',
  'campaigns:timeline', 'characters:history',
  'encounters:summary', 'exports:encounter', 'exports:session', 'exports:campaign', 'imports:campaign', 'imports:encounter', 'imports:table', 'campaigns:demo',
  'backups:list', 'backups:create', 'backups:restore',
  'recovery:status', 'recovery:restore', 'recovery:startEmpty', 'recovery:keep',
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

/** Electron only: the renderer asks main to run one of these exports and save the file through the native dialog. */
export const EXPORT_CHANNEL = 'app:exportFile';
export const EXPORT_HANDLERS = ['exports:encounter', 'exports:session', 'exports:campaign'] as const;
export type ExportHandlerName = (typeof EXPORT_HANDLERS)[number];
export const isExportHandler = (name: unknown): name is ExportHandlerName =>
  typeof name === 'string' && (EXPORT_HANDLERS as readonly string[]).includes(name);
