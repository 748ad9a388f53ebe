import { afterAll, describe, expect, inject, it } from 'vitest';
import { removeTempDirs, start, stop, tempDir } from '../support/binary.js';
import { client } from '../support/http.js';

afterAll(removeTempDirs);

describe('coinventory-server on DATABASE_URL', () => {
  it('migrates the database at start, serves /readyz, and creates no demo organization', async () => {
    const server = await start({ DATABASE_URL: inject('postgresUrl'), COINVENTORY_DATA_DIR: tempDir() });
    try {
      expect(server.stderr()).not.toContain('cvk_live_');
      const ready = await fetch(server.baseUrl.replace(/\/v1$/, '/readyz'));
      expect(ready.status).toBe(200);
      expect((await client(server.baseUrl, null).get('/me')).status).toBe(401);
    } finally {
      expect(await stop(server, 'SIGINT')).toBe(0);
    }
  });
});
