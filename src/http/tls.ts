// HTTPS from the TLS launch options (cli.md §2, "TLS"), read and checked once at start so that a bad
// file stops the server with a message naming its option.
//
// Meilisearch (rustls) → Node (OpenSSL):
//   --ssl-auth-path      CA bundle; clients may present a certificate, which must verify against it
//   --ssl-require-auth   … and must present one (rejected in the handshake otherwise)
//   --ssl-ocsp-path      DER OCSP response stapled to every handshake that asks for one
//   --ssl-resumption,    no effect: Meilisearch 1.50 resumes TLS 1.2 and 1.3 sessions with or without
//   --ssl-tickets        them (rustls keeps 256 sessions by default; checked with `openssl s_client
//                        -sess_in`). Muninn does the same always: a cache of 256 sessions for TLS 1.2
//                        session ids, and session tickets, how Node resumes TLS 1.3 sessions.
import fs from 'node:fs';
import tls from 'node:tls';
import type { ServerOptions } from 'node:https';
import { StartupError } from '../instance/index.ts';

export interface TlsOptions {
  /** PEM certificate chain (`--ssl-cert-path`) */
  certPath: string;
  /** PEM private key (`--ssl-key-path`) */
  keyPath: string;
  /** PEM CA certificates that client certificates must verify against (`--ssl-auth-path`) */
  authPath?: string | null;
  /** DER OCSP response to staple (`--ssl-ocsp-path`) */
  ocspPath?: string | null;
  /** reject clients without a valid certificate (`--ssl-require-auth`; needs `authPath`) */
  requireAuth?: boolean;
}

/** What fastify needs to serve HTTPS: its `https` options, and listeners to add to the server it makes. */
export interface HttpsSetup {
  serverOptions: ServerOptions;
  install(server: tls.Server): void;
}

const SESSION_CACHE_SIZE = 256;

/** Reads and checks the TLS files; throws a StartupError naming the option at fault. */
export function loadTls(opts: TlsOptions): HttpsSetup {
  const cert = readFile(opts.certPath, 'certificate file', '--ssl-cert-path');
  const key = readFile(opts.keyPath, 'private key file', '--ssl-key-path');
  const ca = opts.authPath ? readFile(opts.authPath, 'client CA certificates file', '--ssl-auth-path') : undefined;
  const ocsp = opts.ocspPath ? readFile(opts.ocspPath, 'ocsp file', '--ssl-ocsp-path') : undefined;
  if (opts.requireAuth && ca === undefined) {
    throw new StartupError("'--ssl-require-auth' needs '--ssl-auth-path <PATH>', the CA certificates that client certificates are verified with.");
  }

  const serverOptions: ServerOptions = {
    cert,
    key,
    ...(ca !== undefined ? { ca, requestCert: true, rejectUnauthorized: opts.requireAuth ?? false } : {}),
  };
  try {
    tls.createSecureContext(serverOptions);
  } catch (err) {
    throw new StartupError(
      `bad certificates/private key (--ssl-cert-path ${JSON.stringify(opts.certPath)}, --ssl-key-path ${JSON.stringify(opts.keyPath)}` +
        `${opts.authPath ? `, --ssl-auth-path ${JSON.stringify(opts.authPath)}` : ''}): ${(err as Error).message}`,
    );
  }

  return {
    serverOptions,
    install(server) {
      if (ca !== undefined && !opts.requireAuth) {
        // Certificates stay optional, but one that was presented must verify (as with rustls'
        // verifier that allows anonymous clients): OpenSSL let the handshake finish, so end it here.
        server.on('secureConnection', (socket: tls.TLSSocket) => {
          if (!socket.authorized && socket.getPeerCertificate().raw !== undefined) socket.destroy();
        });
      }
      if (ocsp !== undefined) server.on('OCSPRequest', (_cert: Buffer, _issuer: Buffer, done: (err: Error | null, resp: Buffer) => void) => done(null, ocsp));
      installSessionCache(server);
    },
  };
}

function readFile(path: string, what: string, option: string): Buffer {
  try {
    return fs.readFileSync(path);
  } catch (err) {
    throw new StartupError(`cannot open ${what} ${JSON.stringify(path)} given by ${option}: ${(err as Error).message}`);
  }
}

// Without these listeners Node keeps no server-side sessions (OpenSSL's own cache is off).
function installSessionCache(server: tls.Server): void {
  const sessions = new Map<string, Buffer>();
  server.on('newSession', (id: Buffer, data: Buffer, done: () => void) => {
    sessions.set(id.toString('hex'), data);
    if (sessions.size > SESSION_CACHE_SIZE) sessions.delete(sessions.keys().next().value as string);
    done();
  });
  server.on('resumeSession', (id: Buffer, done: (err: Error | null, data: Buffer | null) => void) => {
    done(null, sessions.get(id.toString('hex')) ?? null);
  });
}
