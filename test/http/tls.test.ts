// HTTPS from the TLS launch options, with certificates made at run time (tls-certs.ts).
// Checks:
//  1. --ssl-cert-path + --ssl-key-path serve HTTPS: a client trusting the CA gets answers, one that
//     does not is refused by its own verification, and plain HTTP on the port gets no answer.
//  2. --ssl-auth-path + --ssl-require-auth: no client certificate → refused; a certificate of the CA →
//     answered; a certificate of another CA → refused.
//  3. --ssl-auth-path alone: certificates are optional, but one that does not verify is refused.
//  4. --ssl-ocsp-path staples the file's bytes; TLS 1.2 and 1.3 sessions resume, with or without
//     --ssl-resumption and --ssl-tickets (as in Meilisearch 1.50).
//  5. Unreadable or mismatched files stop the start with a message naming the option.
//  6. The library serves HTTPS with `ssl`.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { checkSupport, parseCli } from '../../src/cli/index.ts';
import { StartupError } from '../../src/instance/index.ts';
import { Muninn } from '../../src/lib.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { makeTestCerts, opensslMissing, type TestCerts } from './tls-certs.ts';

const skip = opensslMissing();

interface Client {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

async function startTls(args: string[]): Promise<RunningServer & { dbPath: string }> {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-tls-db-'));
  try {
    const outcome = checkSupport(parseCli({ argv: ['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--log-level', 'OFF', ...args], env: {}, cwd: dbPath }));
    if (outcome.kind !== 'run') throw new Error(outcome.stderr);
    const server = await startServer(outcome.options);
    return Object.assign(server, { dbPath });
  } catch (err) {
    // a refused start leaves nothing behind either
    fs.rmSync(dbPath, { recursive: true, force: true });
    throw err;
  }
}

async function stop(server: RunningServer & { dbPath: string }): Promise<void> {
  await server.close();
  fs.rmSync(server.dbPath, { recursive: true, force: true });
}

/** GET over HTTPS; resolves with the status and body, rejects when the connection fails. */
function httpsGet(url: string, client: Client): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ...client, agent: false, servername: 'localhost' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe('TLS launch options', { skip }, () => {
  let certs: TestCerts;
  let ca: Buffer;
  let client: Client;
  let stranger: Client;
  before(() => {
    certs = makeTestCerts();
    ca = fs.readFileSync(certs.caCert);
    client = { ca, cert: fs.readFileSync(certs.clientCert), key: fs.readFileSync(certs.clientKey) };
    stranger = { ca, cert: fs.readFileSync(certs.strangerCert), key: fs.readFileSync(certs.strangerKey) };
  });
  after(() => fs.rmSync(certs.dir, { recursive: true, force: true }));

  const serverArgs = () => ['--ssl-cert-path', certs.serverCert, '--ssl-key-path', certs.serverKey];

  test('a certificate and a key serve HTTPS, and only HTTPS', async () => {
    const server = await startTls(serverArgs());
    try {
      assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await httpsGet(`${server.url}/health`, { ca });
      assert.deepEqual([res.status, JSON.parse(res.body)], [200, { status: 'available' }]);
      // A client that does not trust the CA refuses the server.
      await assert.rejects(httpsGet(`${server.url}/health`, {}), (err: Error) => /certificate/i.test(err.message));
      // Plain HTTP to the same port gets no HTTP answer.
      const plain = new Promise<number>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port: portOf(server.url), path: '/health', agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      await assert.rejects(plain);
      // Client certificates are not asked for: a client with one is answered too.
      assert.equal((await httpsGet(`${server.url}/health`, client)).status, 200);
    } finally {
      await stop(server);
    }
  });

  test('--ssl-require-auth: only clients with a certificate of --ssl-auth-path are answered', async () => {
    const server = await startTls([...serverArgs(), '--ssl-auth-path', certs.caCert, '--ssl-require-auth']);
    try {
      await assert.rejects(httpsGet(`${server.url}/health`, { ca }));
      await assert.rejects(httpsGet(`${server.url}/health`, stranger));
      const res = await httpsGet(`${server.url}/health`, client);
      assert.deepEqual([res.status, JSON.parse(res.body)], [200, { status: 'available' }]);
    } finally {
      await stop(server);
    }
  });

  test('--ssl-auth-path alone: a certificate is optional, but one that does not verify is refused', async () => {
    const server = await startTls([...serverArgs(), '--ssl-auth-path', certs.caCert]);
    try {
      assert.equal((await httpsGet(`${server.url}/health`, { ca })).status, 200);
      assert.equal((await httpsGet(`${server.url}/health`, client)).status, 200);
      await assert.rejects(httpsGet(`${server.url}/health`, stranger));
    } finally {
      await stop(server);
    }
  });

  test('--ssl-ocsp-path staples its bytes; sessions resume with or without --ssl-resumption and --ssl-tickets', async () => {
    const ocspPath = path.join(certs.dir, 'ocsp.der');
    const ocsp = Buffer.from('30030a0100', 'hex');
    fs.writeFileSync(ocspPath, ocsp);

    /** Connects twice, the second time offering the first session; whether it was resumed, and the stapled response. */
    const twice = async (port: number, maxVersion: tls.SecureVersion) => {
      const connect = (session?: Buffer) =>
        new Promise<{ session: Buffer | undefined; reused: boolean; stapled: Buffer | null }>((resolve, reject) => {
          // requestOCSP is a TLSSocket option that tls.connect passes on (missing from its type)
          const options: tls.ConnectionOptions & { requestOCSP: boolean } = { host: '127.0.0.1', port, ca, servername: 'localhost', maxVersion, requestOCSP: true, ...(session ? { session } : {}) };
          const socket = tls.connect(options);
          let saved: Buffer | undefined;
          let stapled: Buffer | null = null;
          socket.on('OCSPResponse', (response: Buffer) => (stapled = response));
          socket.on('session', (s: Buffer) => (saved = s));
          socket.on('secureConnect', () => socket.end('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
          socket.on('data', () => {});
          socket.on('end', () => resolve({ session: saved ?? socket.getSession(), reused: socket.isSessionReused(), stapled }));
          socket.on('error', reject);
        });
      const first = await connect();
      const second = await connect(first.session);
      return { reused: second.reused, stapled: first.stapled };
    };

    const plainServer = await startTls([...serverArgs(), '--ssl-ocsp-path', ocspPath]);
    try {
      const port = portOf(plainServer.url);
      const tls13 = await twice(port, 'TLSv1.3');
      assert.deepEqual(tls13.stapled, ocsp);
      assert.equal(tls13.reused, true);
      assert.equal((await twice(port, 'TLSv1.2')).reused, true);
    } finally {
      await stop(plainServer);
    }

    const flagged = await startTls([...serverArgs(), '--ssl-resumption', '--ssl-tickets']);
    try {
      const tls13 = await twice(portOf(flagged.url), 'TLSv1.3');
      assert.equal(tls13.reused, true);
      assert.equal(tls13.stapled, null);
      assert.equal((await twice(portOf(flagged.url), 'TLSv1.2')).reused, true);
    } finally {
      await stop(flagged);
    }
  });

  test('unreadable or mismatched files stop the start, naming the option', async () => {
    const missing = path.join(certs.dir, 'missing.pem');
    const cases: { args: string[]; message: RegExp }[] = [
      { args: ['--ssl-cert-path', missing, '--ssl-key-path', certs.serverKey], message: /^cannot open certificate file ".*missing\.pem" given by --ssl-cert-path: ENOENT/ },
      { args: ['--ssl-cert-path', certs.serverCert, '--ssl-key-path', missing], message: /^cannot open private key file ".*" given by --ssl-key-path/ },
      { args: [...serverArgs(), '--ssl-auth-path', missing], message: /given by --ssl-auth-path/ },
      { args: [...serverArgs(), '--ssl-ocsp-path', missing], message: /^cannot open ocsp file .* given by --ssl-ocsp-path/ },
      { args: ['--ssl-cert-path', certs.serverCert, '--ssl-key-path', certs.clientKey], message: /^bad certificates\/private key \(--ssl-cert-path .*, --ssl-key-path .*\): .*key values mismatch/ },
      { args: ['--ssl-cert-path', certs.serverKey, '--ssl-key-path', certs.serverKey], message: /^bad certificates\/private key/ },
    ];
    for (const { args, message } of cases) {
      await assert.rejects(startTls(args), (err: Error) => err instanceof StartupError && message.test(err.message), args.join(' '));
    }
  });

  test('the library serves HTTPS when opened with `ssl`', async () => {
    const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-tls-lib-'));
    const muninn = await Muninn.open({ dbPath, ssl: { certPath: certs.serverCert, keyPath: certs.serverKey, authPath: certs.caCert, requireAuth: true } });
    try {
      const url = await muninn.listen({ port: 0 });
      assert.match(url, /^https:/);
      assert.equal((await httpsGet(`${url}/health`, client)).status, 200);
      await assert.rejects(httpsGet(`${url}/health`, { ca }));
    } finally {
      await muninn.close();
      fs.rmSync(dbPath, { recursive: true, force: true });
    }
  });
});
