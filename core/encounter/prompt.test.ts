import { describe, expect, it } from 'vitest';
import { promptAnswerEvent } from './prompt.ts';

describe('promptAnswerEvent', () => {
  it('sends the choice’s structured answer under the prompt’s event type', () => {
    const prompt = { answer: 'DEFEND' };
    expect(promptAnswerEvent(prompt, { id: 'parry-weapon', label: 'Parry (weapon)', answer: { defence: 'parry', slot: 'weapon' } }))
      .toEqual({ type: 'DEFEND', defence: 'parry', slot: 'weapon' });
  });

  it('keeps the prompt’s type even when an answer names one', () => {
    expect(promptAnswerEvent({ answer: 'DEFEND' }, { id: 'x', label: 'X', answer: { type: 'END_COMBAT' } })).toEqual({ type: 'DEFEND' });
  });

  it('sends the type alone for a choice whose answer has no fields (a roll the app makes)', () => {
    expect(promptAnswerEvent({ answer: 'LUCK_TEST' }, { id: 'roll', label: 'Roll', answer: {} })).toEqual({ type: 'LUCK_TEST' });
  });
});
