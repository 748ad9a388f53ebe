export function helpReader(bin: string): (args: string[]) => string;
