// The page's first calls, sent together. The screens wait for the app to say whether its database is damaged
// (recovery:status); the campaign list and the app's facts, which the first screen shows, are asked for in the same
// turn rather than after that answer, so the list is shown one round trip after the socket opens instead of two
// (docs/performance.md "Start"). The calls are core/api/start.ts's START_CALLS, in its order (start-calls.test.ts).
import { CAMPAIGN_LIST_INPUT } from '../../../core/api/start.ts';
import type { CampaignSummary, RecoveryStatus } from '../../../core/api/contract.ts';
import { send } from './api.ts';
import { appInfo } from './app-info.svelte.ts';
import { router } from './router.svelte.ts';

export const loadCampaigns = (): Promise<CampaignSummary[]> => send('campaigns:list', CAMPAIGN_LIST_INPUT);

let startList: Promise<CampaignSummary[]> | null = null;

/** Asks whether the database is damaged and, when the page opens on the campaign list, for that list and the app's facts. */
export function startCalls(): Promise<RecoveryStatus> {
  const status = send('recovery:status', {});
  if (router.route.name === 'campaigns') {
    startList = loadCampaigns();
    // Taken by the list when it shows; when it never does (recovery mode), its failure is nobody's to report.
    startList.catch(() => undefined);
    void appInfo.info;
  }
  void status.then((answer) => {
    // A damaged database's list is refused; the list shown after a restore asks again.
    if (answer.damaged) startList = null;
  }, () => undefined);
  return status;
}

/** The campaign list asked for at start, once (a later visit asks again); null when none is waiting. */
export function takeStartCampaignList(): Promise<CampaignSummary[]> | null {
  const list = startList;
  startList = null;
  return list;
}
