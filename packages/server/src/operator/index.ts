export { COMMANDS } from './commands/index.js';
export { runAdmin } from './dispatch.js';
export { commandHelp, executeAdminCommand, isAdminCommand, prepareAdminCommand } from './run.js';
export { type AdminSocket, adminSocketPath, sendAdminCommand, serveAdminSocket } from './socket.js';
export { type CommandOutput, EXIT } from './spec.js';
