// Types of help-doc.mjs for the tests.
export const HELP_CODE_WIDTH: number;
