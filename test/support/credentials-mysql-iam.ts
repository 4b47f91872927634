/**
 * A MySQL-protocol endpoint that logs clients in the way RDS and RDS Proxy do for IAM users, for the credentials
 * tests: it offers TLS (a self-signed certificate), and after the client's handshake asks for the password in
 * clear (an AuthSwitchRequest to mysql_clear_password), which it records with the user. It accepts every login
 * with a password (an empty one gets error 1045, as from RDS) and answers every command with OK: it holds no data,
 * it only shows what reached it as the password. No MariaDB or
 * MySQL server asks for mysql_clear_password without a PAM setup, hence this endpoint. `tls: false` makes it
 * offer no TLS at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket } from 'node:tls';
import { makeCertificate } from './credentials-tls';

export interface MysqlLogin {
  readonly user: string;
  readonly password: string;
  /** Whether the login arrived over TLS. */
  readonly tls: boolean;
}

export interface MysqlIamEndpoint {
  readonly port: number;
  /** Every login so far, in order: one per new connection. */
  readonly logins: MysqlLogin[];
  stop(): Promise<void>;
}

const capabilities =
  0x1 | // LONG_PASSWORD
  0x4 | // LONG_FLAG
  0x8 | // CONNECT_WITH_DB
  0x200 | // PROTOCOL_41
  0x2000 | // TRANSACTIONS
  0x8000 | // SECURE_CONNECTION
  0x10000 | // MULTI_STATEMENTS
  0x20000 | // MULTI_RESULTS
  0x80000 | // PLUGIN_AUTH
  0x200000; // PLUGIN_AUTH_LENENC_CLIENT_DATA
const SSL = 0x800;

const packet = (sequence: number, payload: Buffer) => {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequence;
  return Buffer.concat([header, payload]);
};

function greeting(tls: boolean, connectionId: number): Buffer {
  const flags = capabilities | (tls ? SSL : 0);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(connectionId);
  const middle = Buffer.alloc(8);
  middle.writeUInt16LE(flags & 0xffff, 0);
  middle[2] = 45; // utf8mb4_general_ci
  middle.writeUInt16LE(0x0002, 3); // autocommit
  middle.writeUInt16LE(flags >>> 16, 5);
  middle[7] = 21;
  return Buffer.concat([
    Buffer.from([0x0a]),
    Buffer.from('8.0.36-rrs-iam-endpoint\0'),
    head,
    Buffer.from('abcdefgh\0'),
    middle,
    Buffer.alloc(10),
    Buffer.from('ijklmnopqrst\0'),
    Buffer.from('mysql_native_password\0'),
  ]);
}

const ok = Buffer.from([0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00]);
const accessDenied = (user: string) =>
  Buffer.concat([Buffer.from([0xff, 0x15, 0x04]), Buffer.from(`#28000Access denied for user '${user}'@'127.0.0.1'`)]);
const switchToClearPassword = Buffer.concat([
  Buffer.from([0xfe]),
  Buffer.from('mysql_clear_password\0abcdefghijklmnopqrst\0'),
]);

/** Splits a byte stream into MySQL packets. */
function packets(onPacket: (sequence: number, payload: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4) {
      const length = pending.readUIntLE(0, 3);
      if (pending.length < 4 + length) break;
      const payload = pending.subarray(4, 4 + length);
      const sequence = pending[3] ?? 0;
      pending = pending.subarray(4 + length);
      onPacket(sequence, payload);
    }
  };
}

/** After the greeting: the client's login (over `stream`), then OK to every command. */
function serve(stream: Duplex, tls: boolean, logins: MysqlLogin[]): (chunk: Buffer) => void {
  let user = '';
  let phase: 'response' | 'password' | 'commands' = 'response';
  return packets((sequence, payload) => {
    if (phase === 'response') {
      // HandshakeResponse41: flags 4, max packet 4, charset 1, filler 23, then the user name
      user = payload.toString('utf8', 32, payload.indexOf(0, 32));
      phase = 'password';
      stream.write(packet(sequence + 1, switchToClearPassword));
    } else if (phase === 'password') {
      const end = payload.indexOf(0);
      const password = payload.toString('utf8', 0, end < 0 ? payload.length : end);
      logins.push({ user, password, tls });
      phase = 'commands';
      stream.write(packet(sequence + 1, password ? ok : accessDenied(user)));
      if (!password) stream.end();
    } else if (payload[0] === 0x01) {
      stream.end(); // COM_QUIT
    } else {
      stream.write(packet(sequence + 1, ok));
    }
  });
}

export async function startMysqlIamEndpoint(options: { tls: boolean }): Promise<MysqlIamEndpoint> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rrs-credentials-mysql-'));
  const certificate = makeCertificate(dir);
  const secureContext = createSecureContext({ key: certificate.key, cert: certificate.cert });
  const logins: MysqlLogin[] = [];
  const sockets = new Set<Socket>();
  let connectionId = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write(packet(0, greeting(options.tls, ++connectionId)));
    if (!options.tls) {
      socket.on('data', serve(socket, false, logins));
      return;
    }
    // the SSLRequest (36 bytes), then TLS over the same socket: bytes already read go to the TLS layer first
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length < 36) return;
      socket.off('data', onHead);
      const raw = new Duplex({
        read() {},
        write(chunk, _encoding, callback) {
          socket.write(chunk, callback);
        },
      });
      socket.on('data', (more: Buffer) => raw.push(more));
      socket.on('end', () => raw.push(null));
      if (head.length > 36) raw.push(head.subarray(36));
      const secure = new TLSSocket(raw, { isServer: true, secureContext });
      secure.on('error', () => socket.destroy());
      secure.on('data', serve(secure, true, logins));
    };
    socket.on('data', onHead);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    logins,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
