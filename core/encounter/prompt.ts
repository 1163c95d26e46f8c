// A blocking question's answer as the event the GM sends. A choice carries its answer as structured fields
// (`{ defence: 'parry', slot: 'weapon' }`), sent beside the prompt's answering event type; the generic prompt card
// and the runner's number keys both send it through here, so no screen builds an answer by hand.
import type { EncounterPrompt, GmEvent, PromptChoice } from './types.ts';

/** The event choosing `choice` sends: `{ type: prompt.answer, ...choice.answer }`. */
export function promptAnswerEvent(prompt: Pick<EncounterPrompt, 'answer'>, choice: PromptChoice): GmEvent {
  return { ...choice.answer, type: prompt.answer };
}
