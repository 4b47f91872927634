/**
 * jose, loaded on first use: a service without sign-in never evaluates it, and it is most of the code sign-in adds
 * to a cold start. Types come from `import type`, which costs nothing at run time.
 */
export function jose(): typeof import('jose') {
  return require('jose') as typeof import('jose');
}
