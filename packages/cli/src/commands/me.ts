import type { Me } from '@coinventory/sdk';
import type { Command } from 'commander';
import { formatDate } from '../output/format.js';
import { printObject } from '../output/render.js';
import { renderDetails } from '../output/table.js';
import { globalOptions, openSession } from '../session.js';
import { addOutputOptions, examples, invocation, type OutputOptions } from './shared.js';

export function registerMe(program: Command): void {
  const me = program
    .command('me')
    .description('show the organization and key you are authenticated as (GET /me)')
    .action(async (_options: OutputOptions, command: Command) => {
      const { format, io } = invocation(command);
      const session = openSession(globalOptions(command), io);
      const value = await session.client.me();
      await printObject(io, format, value, {
        details: (m: Me) =>
          renderDetails(
            [
              ['Organization', `${m.organization.name} (${m.organization.slug})`],
              ['Organization ID', m.organization.id],
              ['Mode', session.client.mode === 'test' ? "test (the workspace's sandbox)" : 'live'],
              ['Key', `${m.apiKey.name ?? '(unnamed)'} (${m.apiKey.id})`],
              ['Scopes', m.apiKey.scopes.join(', ')],
              ['Expires', m.apiKey.expiresAt ? formatDate(m.apiKey.expiresAt) : 'never'],
              ['Rate limit', `${m.rateLimit.maxRequests} requests per ${m.rateLimit.windowSeconds} s`],
              ['Base URL', session.baseUrl],
              ['Key from', session.keySource],
            ],
            io.style,
          ),
      });
    });
  addOutputOptions(me, ['table', 'json']);
  examples(me, [
    'coinventory me',
    'coinventory me --json | jq -r .apiKey.scopes[]',
    'coinventory me --profile staging',
  ]);
}
