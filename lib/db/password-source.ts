/**
 * Where the password of a database connection comes from when the URL holds none (an IAM token, a Secrets Manager
 * secret), as the drivers and the renewing Database ask for it. Nothing here words an error: a password that could
 * not be had is returned as its typed failure, for the call that asked.
 */
/** The password of one new connection, or why there is none. */
export type Password = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly failure: Error };

export interface PasswordSource {
  /** `iam`: a token sent in clear (mysql_clear_password), so the connection must use TLS. */
  readonly kind: 'iam' | 'secret';
  /** The ARN of the secret (`secret`), which messages name. */
  readonly arn?: string;
  /** The password of one new connection. Never rejects: a failure is returned, not thrown. */
  password(): Promise<Password>;
  /** Changes each time the password may have changed (the secret was fetched again). */
  version(): Promise<number>;
  /**
   * The database refused a login made while `version` was current: fetch the secret again, unless that happened
   * since. True when a retry may succeed; rejects when the secret cannot be fetched.
   */
  renew(version: number): Promise<boolean>;
}

/**
 * The password a driver sends: neither driver can take a rejection where it asks (postgres.js would leave it
 * unhandled), so a password that could not be had is sent empty, which the database refuses; the renewing Database
 * then asks the source again and reports its failure (renewing-database.ts).
 */
export async function passwordText(source: PasswordSource): Promise<string> {
  const password = await source.password();
  return password.ok ? password.text : '';
}
