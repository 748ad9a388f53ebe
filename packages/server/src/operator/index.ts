export { COMMANDS } from './commands/index.js';
export { runOperatorCommand } from './dispatch.js';
export { NOUNS, unknownCommandLine } from './names.js';
export { commandHelp, executeOperatorCommand, isOperatorCommand, prepareOperatorCommand } from './run.js';
export { type OperatorSocket, operatorSocketPath, sendOperatorCommand, serveOperatorSocket } from './socket.js';
export { type CommandOutput, EXIT, EXIT_CODES, usageLine } from './spec.js';
