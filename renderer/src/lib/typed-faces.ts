// Faces typed from physical dice, checked in the form before anything is sent: each a whole number from 1 to its
// die's size, as many as the roll throws. A refusal is one sentence in the GM's words, shown next to the field.
import type { RollRequest } from '../../../core/encounter/types.ts';

export type TypedFaces = { faces: number[] } | { error: string };

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The faces in `text` ("5 3", "5,3") for `request`, or the sentence that says what is wrong with them. */
export function checkFaces(text: string, request: Pick<RollRequest, 'count' | 'sides' | 'dice' | 'notation'>): TypedFaces {
  const words = text.split(/[\s,]+/).filter(Boolean);
  const sizes = request.dice ?? Array.from({ length: request.count }, () => request.sides);
  const wanted = sizes.length;
  // A field left empty is rolled by the app.
  if (words.length === 0) return { faces: [] };
  if (wanted === 0) return { error: `${request.notation || 'This roll'} needs no dice.` };
  const what = wanted === 1 ? `one face from 1 to ${sizes[0]}` : sizes.every((s) => s === sizes[0])
    ? `${wanted} faces, each from 1 to ${sizes[0]}`
    : `${wanted} faces, one per die (${sizes.map((s) => `d${s}`).join(' ')})`;
  const bad = words.find((w) => !/^\d+$/.test(w));
  if (bad !== undefined) return { error: `"${bad.slice(0, 20)}" is not a die face: type ${what}.` };
  const faces = words.map(Number);
  if (faces.length !== wanted) return { error: `${request.notation} throws ${counted(wanted, 'die', 'dice')}, but ${counted(faces.length, 'face was', 'faces were')} typed: type ${what}.` };
  for (let i = 0; i < faces.length; i += 1) {
    const face = faces[i]!;
    const size = sizes[i]!;
    if (face < 1 || face > size) return { error: `${face} is not a face of a d${size}: type ${what}.` };
  }
  return { faces };
}
