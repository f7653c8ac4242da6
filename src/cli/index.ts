// Public surface of the command-line layer: option resolution, byte sizes, the HTTP address and master keys.
export type {
  AllowedIpNetworks,
  Environment,
  IpNetwork,
  LogLevel,
  LogsMode,
  Options,
} from './options.ts';
export { parseCli, type CliInput, type CliOutcome } from './parse.ts';
export { checkSupport } from './support.ts';
export { formatByteSize, parseByteSize, splitHttpAddr } from './values.ts';
export { generateMasterKey, MASTER_KEY_MIN_BYTES } from './master-key.ts';
export { MEILISEARCH_API_VERSION, muninnVersion } from './help.ts';
