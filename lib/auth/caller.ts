/**
 * Who is asking, as every stage after sign-in sees it. Types and constants only.
 */

export interface Caller {
  /** False when the service runs without sign-in (no AUTH_ISSUER): privileges are not checked. */
  readonly signedIn: boolean;
  /** The roles read from the token's roles claim (empty when not signed in). */
  readonly roles: readonly string[];
  /** The verified token's claims, as the token holds them ({} when not signed in). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The caller of a service that runs without sign-in. */
export const openCaller: Caller = Object.freeze({
  signedIn: false,
  roles: Object.freeze([]),
  claims: Object.freeze({}),
});

/** The four privileges, named as restSQL's privileges file names them. */
export type Privilege = 'select' | 'insert' | 'update' | 'delete';
