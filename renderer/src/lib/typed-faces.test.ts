import { describe, expect, it } from 'vitest';
import { checkFaces } from './typed-faces.ts';

const d10 = { count: 1, sides: 10, notation: '1d10' };
const twoD6 = { count: 2, sides: 6, notation: '2d6kh1' };
const mixed = { count: 3, sides: 12, dice: [8, 6, 12], notation: 'd8+d6+d12' };

describe('checkFaces', () => {
  it('reads whole faces on the die, spaces or commas between them', () => {
    expect(checkFaces('9', d10)).toEqual({ faces: [9] });
    expect(checkFaces(' 5, 3 ', twoD6)).toEqual({ faces: [5, 3] });
    expect(checkFaces('8 6 12', mixed)).toEqual({ faces: [8, 6, 12] });
  });

  it('refuses a word with a sentence, never a path', () => {
    expect(checkFaces('abc', d10)).toEqual({ error: '"abc" is not a die face: type one face from 1 to 10.' });
    expect(checkFaces('2.5', d10)).toEqual({ error: '"2.5" is not a die face: type one face from 1 to 10.' });
    expect(checkFaces('-1', d10)).toEqual({ error: '"-1" is not a die face: type one face from 1 to 10.' });
  });

  it('refuses a face off the die, naming that die', () => {
    expect(checkFaces('11', d10)).toEqual({ error: '11 is not a face of a d10: type one face from 1 to 10.' });
    expect(checkFaces('0 3', twoD6)).toEqual({ error: '0 is not a face of a d6: type 2 faces, each from 1 to 6.' });
    expect(checkFaces('8 7 12', mixed)).toEqual({ error: '7 is not a face of a d6: type 3 faces, one per die (d8 d6 d12).' });
  });

  it('leaves an empty field for the app to roll', () => {
    expect(checkFaces('  ', d10)).toEqual({ faces: [] });
  });

  it('refuses the wrong count', () => {
    expect(checkFaces('5', twoD6)).toEqual({ error: '2d6kh1 throws 2 dice, but 1 face was typed: type 2 faces, each from 1 to 6.' });
    expect(checkFaces('1 2 3', twoD6)).toEqual({ error: '2d6kh1 throws 2 dice, but 3 faces were typed: type 2 faces, each from 1 to 6.' });
  });
});
