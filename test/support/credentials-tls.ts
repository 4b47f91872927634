/**
 * A throw-away self-signed TLS certificate (openssl, an EC key: made in milliseconds) for the credentials tests'
 * servers. Node trusts it nowhere, so a client that verifies certificates refuses it: that is how the tests tell
 * verified TLS from encrypted-only TLS.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface TestCertificate {
  readonly keyFile: string;
  readonly certFile: string;
  readonly key: Buffer;
  readonly cert: Buffer;
}

/** Writes server.key and server.crt into `dir`. */
export function makeCertificate(dir: string): TestCertificate {
  const keyFile = path.join(dir, 'server.key');
  const certFile = path.join(dir, 'server.crt');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}
