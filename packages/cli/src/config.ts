import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, errorMessage, isErrno, UsageError } from './errors.js';

/**
 * Profiles, saved by `coinventory login` in a JSON file only the user can read:
 *
 * - `$COINVENTORY_CONFIG_DIR/config.json` when that is set (tests use it), else
 * - `$XDG_CONFIG_HOME/coinventory/config.json`, else `~/.config/coinventory/config.json`.
 *
 * The directory is created with mode 0700 and the file is written with mode 0600 (through a temporary file renamed
 * over the old one, so a crash never leaves half a file).
 */

export interface Profile {
  apiKey?: string;
  baseUrl?: string;
}

export interface ConfigFile {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.COINVENTORY_CONFIG_DIR?.trim();
  if (override) return override;
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return join(xdg ? xdg : join(env.HOME?.trim() || homedir(), '.config'), 'coinventory');
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.json');
}

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `Invalid profile name '${name}': use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
  return name;
}

/** Reads the config file; a missing file is an empty config. */
export function readConfig(path: string = configPath()): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { profiles: {} };
    throw new CliError(`Cannot read ${path}: ${errorMessage(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${errorMessage(error)}); fix or delete it.`);
  }
  return normalise(parsed, path);
}

/** Writes the config file with mode 0600 in a directory with mode 0700. */
export function writeConfig(config: ConfigFile, path: string = configPath()): void {
  const dir = join(path, '..');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    throw new CliError(`Cannot write ${path}: ${errorMessage(error)}`);
  }
}

/** The file's permission bits when it exists and others than its owner may read it; else undefined. */
export function looseMode(path: string = configPath()): number | undefined {
  try {
    const mode = statSync(path).mode & 0o777;
    return mode & 0o077 ? mode : undefined;
  } catch {
    return undefined;
  }
}

function normalise(value: unknown, path: string): ConfigFile {
  if (!isObject(value)) throw new CliError(`${path} must hold a JSON object; fix or delete it.`);
  const profiles: Record<string, Profile> = {};
  const raw = value.profiles;
  if (raw !== undefined && !isObject(raw)) throw new CliError(`${path}: "profiles" must be an object.`);
  for (const [name, entry] of Object.entries(raw ?? {})) {
    if (!isObject(entry)) throw new CliError(`${path}: profile "${name}" must be an object.`);
    const profile: Profile = {};
    if (typeof entry.apiKey === 'string') profile.apiKey = entry.apiKey;
    if (typeof entry.baseUrl === 'string') profile.baseUrl = entry.baseUrl;
    profiles[name] = profile;
  }
  return { profiles };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
