/** A function of the query language, for completion and highlighting. */
export interface LanguageFunction {
  name: string;
  signature: string;
  doc: string;
}

/** The functions `pkg/query` registers (see its builtins.go). */
export const FUNCTIONS: LanguageFunction[] = [
  {
    name: 'frames_from_label',
    signature: 'frames_from_label(q, "label", …, sep="::")',
    doc: 'Inserts virtual frames made from the values of the labels at the base of every stack; sep splits a value into nested frames.',
  },
  { name: 'reverse', signature: 'reverse(q)', doc: 'Turns the flamegraph upside down: leaf functions at the base.' },
  {
    name: 'focus',
    signature: 'focus(q, "regex")',
    doc: 'Keeps the stacks through frames whose name matches the regular expression, rooted at those frames.',
  },
  {
    name: 'drop_frames',
    signature: 'drop_frames(q, "regex")',
    doc: 'Removes the frames whose name matches the regular expression; their values go to their callers.',
  },
  {
    name: 'truncate',
    signature: 'truncate(q, depth)',
    doc: 'Cuts every stack below the given depth; what is cut is added to the frame at that depth.',
  },
];

/** Words with a meaning of their own in the language. */
export const KEYWORDS = ['by', 'sep'];

/** Whether name is one of the language's functions. */
export function isFunction(name: string): boolean {
  return FUNCTIONS.some((f) => f.name === name);
}
