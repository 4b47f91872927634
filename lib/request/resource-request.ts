/**
 * What a client asked of a resource, parsed before the resource is known: the operation, the path's key
 * segments, the query's filters and specials, and the body as written. Labels and values are still the raw
 * text the client sent; the planner checks them against the resource. Types only.
 */
import type { EntityTags } from '../entity-tags';
import type { OutputName } from '../values';

/** The parts of an HTTP request that say what is asked of a resource. */
export interface RequestParts {
  readonly method: string;
  /** Percent-encoded, as sent. */
  readonly path: string;
  /** Percent-encoded, without `?`. */
  readonly rawQuery: string;
  readonly contentType?: string;
  /** `X-HTTP-Method-Override`. */
  readonly methodOverride?: string;
  /** The conditional headers, as sent: If-None-Match on a read, If-Match on a write by key. */
  readonly ifMatch?: string;
  readonly ifNoneMatch?: string;
  readonly body?: string;
  /** `Prefer` (RFC 7240). */
  readonly prefer?: string;
}

export type Operation = 'read' | 'insert' | 'update' | 'delete';

/** One `name=value` pair of a query string, decoded and classified by the query grammar. */
export type RawFilter =
  | { readonly name: string; readonly op: 'null' | 'notnull' }
  | { readonly name: string; readonly op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'like'; readonly value: string }
  | { readonly name: string; readonly op: 'in'; readonly values: readonly string[] };

/** One item of `_order`: a field's label, and whether its rows go from the highest value down (`-label`). */
export interface OrderItem {
  readonly name: string;
  readonly descending: boolean;
}

/** A parsed query string: ordinary filters plus the special `_limit`, `_offset`, `_output`, `_order`, `_after` parameters. */
export interface ParsedQuery {
  readonly filters: readonly RawFilter[];
  readonly limit?: number;
  readonly offset?: number;
  readonly output?: OutputName;
  /** `_order=title,-price`: the order asked for, first item first. */
  readonly order?: readonly OrderItem[];
  /** `_after=<token>`: the rows after the last one of the page whose Link gave the token, still encoded. */
  readonly after?: string;
}

/** A value as a body gives it: XML and form give strings; JSON may give numbers, booleans and null; CSV null. */
export type RawValue = string | number | boolean | null;

/** A row of a request body: its attributes, and for hierarchical resources its nested child rows. */
export interface BodyRow {
  readonly values: Readonly<Record<string, RawValue>>;
  readonly children?: readonly BodyRow[];
}

export type BodyType = 'xml' | 'json' | 'form' | 'csv';

/** An XML element as written: its name, attributes (entities decoded) and element children, in order. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
}

/**
 * A body, read but not yet matched to the resource's names. `children`: the body holds child rows of the parent
 * in the path (a key in the path and an XML or JSON body); `parents`: rows of the resource.
 */
export type RequestBody =
  | { readonly type: 'form'; readonly row: BodyRow }
  | { readonly type: 'xml'; readonly shape: 'parents' | 'children'; readonly root: XmlElement }
  | { readonly type: 'json'; readonly shape: 'parents' | 'children'; readonly document: unknown }
  | { readonly type: 'csv'; readonly shape: 'parents'; readonly rows: readonly BodyRow[] };

interface RequestOfAResource {
  /** The resource name, decoded. */
  readonly name: string;
  /** The path's key segments, decoded. */
  readonly pathKeys: readonly string[];
  readonly query: ParsedQuery;
}

/** A read, of rows or of one row by its key, never has a body. */
export interface ReadRequest extends RequestOfAResource {
  readonly op: 'read';
  /** If-None-Match: the versions the client holds; a read of one of them is answered 304. */
  readonly ifNoneMatch?: EntityTags;
  /** `Prefer: count=exact`: the read answers with the total of rows it pages through. */
  readonly countExact?: true;
}

export interface WriteRequest extends RequestOfAResource {
  readonly op: Exclude<Operation, 'read'>;
  readonly body?: RequestBody;
  /** If-Match: the versions of the rows addressed by key that the write may change; any other is a 412. */
  readonly ifMatch?: EntityTags;
}

export type ResourceRequest = ReadRequest | WriteRequest;
