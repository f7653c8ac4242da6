// What Muninn does with each launch option it parses: an option either acts, is a documented no-op
// (docs/compat.md, "Launch"), or stops the server at start with a message naming it. This file holds the
// refusals, so that no option is ever accepted and silently ignored (issue 10, item 5).
import type { Options } from './options.ts';
import type { CliOutcome } from './parse.ts';

/** Options Muninn cannot act on yet: giving one stops the server at start. */
const NOT_SUPPORTED: ReadonlyArray<readonly [keyof Options, string]> = [
  ['experimentalPersonalizationApiKey', 'Muninn does not personalize searches'],
  ...(
    [
      's3BucketUrl',
      's3BucketRegion',
      's3BucketName',
      's3SnapshotPrefix',
      's3AccessKey',
      's3SecretKey',
      'experimentalS3RoleArn',
      'experimentalS3WebIdentityTokenFile',
      'experimentalS3MaxInFlightParts',
      'experimentalS3CompressionLevel',
      'experimentalS3SignatureDurationSeconds',
      'experimentalS3MultipartPartSize',
    ] as const
  ).map((key) => [key, 'Muninn cannot take snapshots, to S3 or elsewhere, yet'] as const),
];

/** TLS options that only mean something once TLS is on. */
const TLS_ONLY: ReadonlyArray<keyof Options> = ['sslAuthPath', 'sslOcspPath', 'sslRequireAuth', 'sslResumption', 'sslTickets'];

/**
 * Turns a parsed launch into a start-up error (exit 1, `Error: …` on stderr) when it gives an option
 * Muninn cannot honour; any other outcome passes through unchanged.
 */
export function checkSupport(outcome: CliOutcome): CliOutcome {
  if (outcome.kind !== 'run') return outcome;
  const message = refusal(outcome.options, outcome.given);
  return message === null ? outcome : { kind: 'exit', code: 1, stdout: '', stderr: `Error: ${message}\n` };
}

function refusal(options: Options, given: ReadonlyMap<keyof Options, string>): string | null {
  for (const [key, reason] of NOT_SUPPORTED) {
    const name = given.get(key);
    // `schedule_snapshot = false` is given but asks for nothing
    if (name !== undefined && options[key] !== null && options[key] !== false) return `${name} is not supported yet: ${reason}.`;
  }

  // Meilisearch serves plain HTTP when one of the pair is missing; a half-configured TLS should not.
  const cert = given.get('sslCertPath');
  const key = given.get('sslKeyPath');
  if (cert !== undefined && key === undefined) return `${cert} needs '--ssl-key-path <PATH>' too: TLS is enabled only with both.`;
  if (key !== undefined && cert === undefined) return `${key} needs '--ssl-cert-path <PATH>' too: TLS is enabled only with both.`;
  for (const option of TLS_ONLY) {
    const name = given.get(option);
    if (name !== undefined && cert === undefined) {
      return `${name} needs '--ssl-cert-path <PATH>' and '--ssl-key-path <PATH>': it only applies to HTTPS.`;
    }
  }
  // Meilisearch ignores it without a CA; a server told to require client certificates should not accept everyone.
  const requireAuth = given.get('sslRequireAuth');
  if (requireAuth !== undefined && !given.has('sslAuthPath')) {
    return `${requireAuth} needs '--ssl-auth-path <PATH>', the CA certificates that client certificates are verified with.`;
  }
  return null;
}
