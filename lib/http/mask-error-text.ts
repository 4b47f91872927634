/**
 * What an error body may say of where the service runs, once sign-in is on: no database host or port, and no
 * absolute file path. A location under the definitions folder is shown relative to it (`shop/Book.xml`); any
 * other absolute path in the text of a 5xx by its file name; the database servers the configuration names are
 * `***` wherever they appear; and the text of a connection failure (`driver message :: SQL`) keeps its form with
 * every address and host name in the driver's part masked, as /health/db masks them. Without sign-in the text is
 * left exactly as it is: restSQL's clients read the 404's expected location. Pure: must not read env or files.
 */
import type { Config } from '../config';
import { maskAddresses } from '../db/mask-url';
import type { ServiceError } from '../errors';

/** What a masked text must not show. */
export interface HiddenPlaces {
  /** The definitions folder (absolute) or `s3://bucket/prefix`. */
  readonly definitionsRoot?: string;
  /** The configured database servers: `host:port` and `host`, longest first. */
  readonly hosts: readonly string[];
}

/** The separator of a database error's text: the driver's message before it, the statement after it. */
const separator = ' :: ';

/** An absolute path (or a `file:` URL) after a space, a quote, a parenthesis or `=`: its folders are dropped. */
const absolutePath = /(^|[\s('"=])(?:file:(?:\/\/)?)?\/(?:[^\s/'"(),;]+\/)+([^\s/'"(),;]*)/g;

/** The places of `settings` an error body must not show. */
export function hiddenPlacesOf(settings: Config): HiddenPlaces {
  const urls = [
    settings.databaseUrl,
    settings.databaseReadUrl,
    ...Object.values(settings.databaseUrls),
    ...Object.values(settings.databaseReadUrls),
  ];
  const hosts = new Set<string>();
  for (const url of urls) {
    const parsed = parse(url);
    if (parsed?.host) hosts.add(parsed.host);
    if (parsed?.hostname) hosts.add(parsed.hostname.replace(/^\[|\]$/g, ''));
  }
  return {
    definitionsRoot: settings.definitionsS3?.replace(/\/+$/, '') ?? settings.definitionsDir,
    hosts: [...hosts].sort((a, b) => b.length - a.length),
  };
}

/** The host as a whole name: `db` in `db:5432` or `@db`, not in `bookstore_db` or `db.example.com`. */
function wholeName(host: string): RegExp {
  const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-]|\\.\\w)`, 'g');
}

function parse(url: string | undefined): URL | undefined {
  try {
    return url ? new URL(url) : undefined;
  } catch {
    return undefined;
  }
}

/** The error's text as a client may read it with sign-in on. */
export function maskErrorText(error: ServiceError, hidden: HiddenPlaces): string {
  let text = error.message;
  if (hidden.definitionsRoot) text = text.split(`${hidden.definitionsRoot}/`).join('');
  for (const host of hidden.hosts) text = text.replace(wholeName(host), '***');
  if (error.status < 500) return text;
  const cut = text.lastIndexOf(separator);
  const statement = cut < 0 ? '' : text.slice(cut);
  let head = (cut < 0 ? text : text.slice(0, cut)).replace(absolutePath, '$1$2');
  if (error.code === 'database_unreachable') head = maskAddresses(head);
  return head + statement;
}
