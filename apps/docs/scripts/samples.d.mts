// Types of samples.mjs for the tests.
import type { DocumentOperation } from './render.mjs';

/** A value a sample reads from the environment: `{ env: 'ITEM_ID' }`. */
export interface EnvValue {
  env: string;
}

export interface SampleRequest {
  method: string;
  path: Array<string | EnvValue>;
  query: Array<{ name: string; value: unknown }>;
  body: unknown;
}

export interface RequestSample {
  client: 'curl' | 'sdk' | 'cli';
  label: string;
  lang: 'bash' | 'ts';
  code: string;
}

export const WRITTEN_BASE_URL: string;
export const SAMPLE_WIDTH: number;
export const CURSOR_ENV: string;
export function pathEnvName(path: string, parameter: string): string;
export function sampleRequest(operation: DocumentOperation): SampleRequest;
export function requestEnv(request: SampleRequest): string[];
export function curlSample(request: SampleRequest): string;
export function sdkSample(
  request: SampleRequest,
  options: { routeKey: string; responseName: string; streamed: boolean },
): string;
export function cliCommandOf(
  routeKey: string,
  commands: Array<{ path: string[]; help: string }>,
): { path: string[]; help: string } | undefined;
export function cliSample(
  request: SampleRequest,
  options: { routeKey: string; commands: Array<{ path: string[]; help: string }> },
): string;
export function requestSamples(
  operation: DocumentOperation,
  options: {
    routeKey: string;
    commands: Array<{ path: string[]; help: string }>;
    responseName: string;
    streamed: boolean;
  },
): RequestSample[];
