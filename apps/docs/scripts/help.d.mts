export const CLI_BIN: string;
export const SERVER_BIN: string;
export function helpReader(bin: string): (args: string[]) => string;
