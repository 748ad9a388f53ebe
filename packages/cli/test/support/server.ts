// The real server binary, from @coinventory/server's test helper (a devDependency, built first by turbo).
export {
  createKey,
  type RunningServer,
  runOperatorCommand,
  type ServerInfo,
  startServer,
  stopServer,
} from '@coinventory/test-server';
