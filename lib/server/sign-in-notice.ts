/**
 * What `npm start` and `npm run serve` say about sign-in as they start: off says plainly that anyone who reaches the
 * port may read and write everything (a warning); on names the issuer, audience, keys and privileges file. Pure.
 */
import { defaultJwksUrl } from '../auth/authenticate';
import type { Config } from '../config';

export type SignInSettings = Pick<
  Config,
  'authIssuer' | 'authAudience' | 'authJwksUrl' | 'authRolesClaim' | 'privileges'
>;

export interface SignInNotice {
  /** True when sign-in is off: the lines are a warning. */
  readonly warning: boolean;
  readonly lines: readonly string[];
}

export function signInNotice(settings: SignInSettings): SignInNotice {
  if (!settings.authIssuer)
    return {
      warning: true,
      lines: [
        'Sign-in: off. Anyone who can reach this port may read and write every resource,',
        'through /res and through the MCP endpoint /mcp (AI agents), which answers only',
        'requests addressed to localhost or MCP_ALLOWED_HOSTS;',
        'set AUTH_ISSUER and AUTH_AUDIENCE to require tokens (README: Securing it).',
      ],
    };
  return {
    warning: false,
    lines: [
      `Sign-in: on. Tokens from ${settings.authIssuer} for ${settings.authAudience}, keys from ${settings.authJwksUrl ?? defaultJwksUrl(settings.authIssuer)}`,
      settings.privileges
        ? `Privileges: ${settings.privileges}; roles from the claim ${settings.authRolesClaim}`
        : 'Privileges: none (PRIVILEGES is not set), so every request is denied',
    ],
  };
}
