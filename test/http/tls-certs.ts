// Certificates made at run time for the TLS tests (no private key is committed): a CA, a server
// certificate for 127.0.0.1/localhost, a client certificate the CA signed, and one from another CA.
// Uses the `openssl` command; `opensslMissing()` says why tests skip when it is not installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCerts {
  dir: string;
  /** PEM files */
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** a client certificate signed by a CA the server does not trust */
  strangerCert: string;
  strangerKey: string;
}

/** A skip message when `openssl` cannot be run, else false. */
export function opensslMissing(): string | false {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'the `openssl` command is not installed: TLS tests need it to make their certificates';
  }
}

/** Makes the certificates in a new temp directory. */
export function makeTestCerts(): TestCerts {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const key = (name: string) => openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file(name));
  const selfSignedCa = (name: string, cn: string) => {
    key(`${name}.key`);
    openssl('req', '-x509', '-new', '-key', file(`${name}.key`), '-subj', `/CN=${cn}`, '-days', '2', '-out', file(`${name}.pem`),
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  };
  const signed = (name: string, ca: string, cn: string, extensions: string) => {
    key(`${name}.key`);
    openssl('req', '-new', '-key', file(`${name}.key`), '-subj', `/CN=${cn}`, '-out', file(`${name}.csr`));
    fs.writeFileSync(file(`${name}.ext`), extensions);
    openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${ca}.pem`), '-CAkey', file(`${ca}.key`), '-CAcreateserial',
      '-days', '2', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`));
  };
  selfSignedCa('ca', 'Muninn test CA');
  selfSignedCa('stranger-ca', 'Unknown CA');
  signed('server', 'ca', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  signed('client', 'ca', 'muninn test client', 'extendedKeyUsage=clientAuth\n');
  signed('stranger', 'stranger-ca', 'stranger', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    caCert: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    strangerCert: file('stranger.pem'),
    strangerKey: file('stranger.key'),
  };
}
