/**
 * Grades on the Sheldon scale, as grading services write them: a prefix (`MS`, `PR`, `AU`, `VF`…), a number from 1 to
 * 70, and sometimes a designation after it (`MS64PL`, `PR69DCAM`, `MS65+`). The valuation engine compares grades
 * only within a family: mint state and circulated grades form one, proofs (`PR`, `PF`) and specimens (`SP`) others,
 * because a proof is never a comparable of a business strike.
 */

/** The points graders use; a "step" is one place in this list (MS64 to MS65 is one step, AU55 to AU58 one too). */
export const SHELDON_POINTS = [
  1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 53, 55, 58, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70,
] as const;

const FAMILY_OF_PREFIX: Readonly<Record<string, string>> = {
  PO: 'strike',
  FR: 'strike',
  AG: 'strike',
  G: 'strike',
  VG: 'strike',
  F: 'strike',
  VF: 'strike',
  EF: 'strike',
  XF: 'strike',
  AU: 'strike',
  MS: 'strike',
  UNC: 'strike',
  BU: 'strike',
  PR: 'proof',
  PF: 'proof',
  SP: 'specimen',
};

export interface Grade {
  /** The grade as compared for an exact match: upper case, without spaces (`MS 65+` and `ms65+` are `MS65+`). */
  key: string;
  family: string;
  /** Its place in SHELDON_POINTS. */
  step: number;
}

/** The grade `text` names, or null when it is not a Sheldon grade (a raw coin's "Fine" or "Choice BU", say). */
export function parseGrade(text: string | null): Grade | null {
  if (text === null) return null;
  const key = text.replace(/\s+/g, '').toUpperCase();
  const match = /^([A-Z]+)-?(\d{1,2})/.exec(key);
  if (!match) return null;
  const family = FAMILY_OF_PREFIX[match[1] as string];
  const step = (SHELDON_POINTS as readonly number[]).indexOf(Number(match[2]));
  if (!family || step < 0) return null;
  return { key, family, step };
}
