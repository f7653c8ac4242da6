// Master key launch rules (auth-keys.md §1): production refuses to start without a strong key, development
// starts anyway and says why that is risky. The generated suggestion saves the user a trip to a key generator.
import { randomBytes } from 'node:crypto';
import type { Environment } from './options.ts';

export const MASTER_KEY_MIN_BYTES = 16;

/** 32 random bytes, URL-safe base64 without padding (43 characters). */
export function generateMasterKey(): string {
  return randomBytes(32).toString('base64url');
}

export type MasterKeyCheck = { kind: 'ok'; warning: string | null } | { kind: 'fatal'; message: string };

/** Applies the production requirements and produces the development warnings. */
export function checkMasterKey(env: Environment, masterKey: string | null): MasterKeyCheck {
  const length = masterKey === null ? 0 : Buffer.byteLength(masterKey, 'utf8');
  if (env === 'production') {
    if (masterKey === null) {
      return {
        kind: 'fatal',
        message:
          'You must provide a master key to secure your instance in a production environment. It can be specified ' +
          'via the MEILI_MASTER_KEY environment variable or the --master-key launch option.\n\n' +
          generatedKeySuggestion(),
      };
    }
    if (length < MASTER_KEY_MIN_BYTES) {
      return {
        kind: 'fatal',
        message:
          `The master key must be at least ${MASTER_KEY_MIN_BYTES} bytes in a production environment. ` +
          `The provided key is only ${length} bytes.\n\n${generatedKeySuggestion()}`,
      };
    }
    return { kind: 'ok', warning: null };
  }

  if (masterKey === null) {
    return {
      kind: 'ok',
      warning:
        'No master key was found. The server will accept unidentified requests. ' +
        'If you need some protection in development mode, please export a key:\n\n' +
        `export MEILI_MASTER_KEY=${generateMasterKey()}\n\n` +
        `A master key of at least ${MASTER_KEY_MIN_BYTES} bytes will be required when switching to a production ` +
        'environment.',
    };
  }
  if (length < MASTER_KEY_MIN_BYTES) {
    return {
      kind: 'ok',
      warning:
        `The master key is only ${length} bytes long, which is considered unsafe: requests still need it, but it ` +
        `is easy to guess. A master key of at least ${MASTER_KEY_MIN_BYTES} bytes will be required when switching ` +
        `to a production environment.\n\n${generatedKeySuggestion()}`,
    };
  }
  return { kind: 'ok', warning: null };
}

function generatedKeySuggestion(): string {
  return (
    'We generated a new secure master key for you (you can safely use this token):\n' +
    `>> --master-key ${generateMasterKey()} <<`
  );
}
