import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The config file itself: where it lives, reading and atomic writing. The CLI kept it with the
 * `conf` package until issue 9; conf and its dependencies (ajv, atomically, semver…) cost ~55 ms
 * at every start for what is a JSON file, so this module does the same things with node:fs:
 * the same place (conf's env-paths config directory, projectSuffix ''), the same format
 * (tab-indented JSON) and an atomic write (temporary file, fsync, rename) with the given mode.
 */

/** `$FOS_CONFIG_DIR/config.json`, else the platform's config directory for `fos`. */
export function configFilePath(configDir: string | undefined): string {
  return path.resolve(configDir || defaultConfigDir(process.env), 'config.json');
}

function defaultConfigDir(env: NodeJS.ProcessEnv): string {
  const home = homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Preferences', 'fos');
  if (process.platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), 'fos', 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'fos');
}

/** The parsed file, or an empty object when there is none yet (its directory is created). */
export function readConfigFile<T extends object>(file: string): T {
  try {
    return Object.assign(Object.create(null), JSON.parse(readFileSync(file, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException)?.code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(file), { recursive: true });
    return Object.create(null);
  }
}

/** Replaces the file in one step: readers see the old content or the new, never a part. */
export function writeConfigFile(file: string, data: object, mode: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`; // node:crypto costs ms to load
  try {
    const fd = openSync(temp, 'w', mode);
    try {
      writeSync(fd, JSON.stringify(data, undefined, '\t'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
