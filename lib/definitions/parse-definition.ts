/**
 * Parses a definition file into a Definition: the query, the declared tables and their roles, validation
 * rules, cache control and documentation. Checks everything that needs no database; the catalog checks come
 * later (build-resource). Pure: no IO.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DefinitionError } from '../errors';
import type { EventsSetting, TableRole, ValidationRule, WriteOperation } from '../resource';

export interface DeclaredTable {
  readonly name: string;
  readonly role: TableRole;
  readonly rowAlias?: string;
  readonly rowSetAlias?: string;
}

export interface Definition {
  readonly file: string;
  readonly query: string;
  /** `metadata/database@default`; absent means DATABASE_URL as it is. */
  readonly database?: string;
  readonly tables: readonly DeclaredTable[];
  readonly validations: readonly ValidationRule[];
  readonly cacheControl?: string;
  /** `<limits maxRows="N"/>`: the most rows one read returns, in place of MAX_ROWS (lower or higher). */
  readonly maxRows?: number;
  /** `<http><request ifMatch="required"/></http>`: a write by key without If-Match is a 428. */
  readonly ifMatchRequired?: true;
  /** `<events on="insert update delete" before="true"/>`: the committed writes it announces. */
  readonly events?: EventsSetting;
  readonly documentation?: string;
}

const roles: readonly TableRole[] = ['Parent', 'ParentExtension', 'Child', 'ChildExtension', 'Join'];

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  stopNodes: ['sqlResource.documentation'],
  isArray: (name) => name === 'table' || name === 'validatedAttribute',
});

type XmlNode = Record<string, unknown>;

export function parseDefinition(file: string, xml: string): Definition {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new DefinitionError(
      file,
      `malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`,
    );
  }
  const root = (parser.parse(xml) as XmlNode).sqlResource as XmlNode | undefined;
  if (!root || typeof root !== 'object') throw new DefinitionError(file, 'the root element must be sqlResource');
  const query = parseQueryText(file, root.query);
  const metadata = (root.metadata ?? {}) as XmlNode;
  const tables = parseTables(file, metadata.table);
  return {
    file,
    query,
    database: optionalAttribute(metadata.database, 'default'),
    tables,
    validations: parseValidations(file, root.validatedAttribute),
    cacheControl: optionalAttribute((root.http as XmlNode | undefined)?.response, 'cacheControl'),
    ...parseIfMatch(file, (root.http as XmlNode | undefined)?.request),
    ...parseLimits(file, root.limits),
    ...parseEvents(file, root.events),
    documentation: typeof root.documentation === 'string' ? documentationText(root.documentation) : undefined,
  };
}

function parseQueryText(file: string, node: unknown): string {
  const text = typeof node === 'string' ? node : typeof node === 'object' && node ? (node as XmlNode)['#text'] : '';
  const query = String(text ?? '')
    .trim()
    .replace(/;\s*$/, '');
  if (!query) throw new DefinitionError(file, 'the query element is missing or empty');
  if (!/^select\s/i.test(query)) throw new DefinitionError(file, 'the query must be one SELECT statement');
  return query;
}

function parseLimits(file: string, node: unknown): { maxRows?: number } {
  const raw = node && typeof node === 'object' ? (node as XmlNode).maxRows : undefined;
  if (raw === undefined) return {};
  if (typeof raw !== 'string' || !/^[1-9]\d{0,8}$/.test(raw)) {
    throw new DefinitionError(file, `limits has maxRows="${String(raw)}"; expected a whole number of rows, at least 1`);
  }
  return { maxRows: Number(raw) };
}

function parseIfMatch(file: string, node: unknown): { ifMatchRequired?: true } {
  const value = optionalAttribute(node, 'ifMatch');
  if (value === undefined || value === 'optional') return {};
  if (value === 'required') return { ifMatchRequired: true };
  throw new DefinitionError(file, `http/request has ifMatch="${value}"; expected "required" or "optional"`);
}

const writeOperations: readonly WriteOperation[] = ['insert', 'update', 'delete'];

function parseEvents(file: string, node: unknown): { events?: EventsSetting } {
  if (node === undefined) return {};
  const on = optionalAttribute(node, 'on');
  if (on === undefined) {
    throw new DefinitionError(file, 'events has no on attribute; expected on="insert update delete" (any of them)');
  }
  const named = on.trim().split(/\s+/);
  const unknown = named.find((name) => !writeOperations.includes(name as WriteOperation));
  if (unknown !== undefined) {
    throw new DefinitionError(file, `events has on="${on}"; "${unknown}" is not one of insert, update, delete`);
  }
  const before = optionalAttribute(node, 'before') ?? 'false';
  if (before !== 'true' && before !== 'false') {
    throw new DefinitionError(file, `events has before="${before}"; expected "true" or "false"`);
  }
  const operations = writeOperations.filter((operation) => named.includes(operation));
  return { events: { on: operations, before: before === 'true' } };
}

function optionalAttribute(node: unknown, name: string): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const value = (node as XmlNode)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function parseTables(file: string, nodes: unknown): DeclaredTable[] {
  const tables = ((nodes ?? []) as XmlNode[]).map((node, i): DeclaredTable => {
    const name = optionalAttribute(node, 'name');
    const role = optionalAttribute(node, 'role');
    if (!name) throw new DefinitionError(file, `metadata table #${i + 1} has no name`);
    if (!role || !roles.includes(role as TableRole)) {
      throw new DefinitionError(file, `table ${name} has role "${role ?? ''}"; expected one of ${roles.join(', ')}`);
    }
    return {
      name,
      role: role as TableRole,
      rowAlias: optionalAttribute(node, 'rowAlias') ?? optionalAttribute(node, 'alias'),
      rowSetAlias: optionalAttribute(node, 'rowSetAlias'),
    };
  });
  checkRoles(file, tables);
  return tables;
}

function checkRoles(file: string, tables: readonly DeclaredTable[]): void {
  const count = (role: TableRole) => tables.filter((t) => t.role === role).length;
  if (count('Parent') !== 1)
    throw new DefinitionError(file, `expected exactly one Parent table, found ${count('Parent')}`);
  if (count('Child') > 1) throw new DefinitionError(file, `expected at most one Child table, found ${count('Child')}`);
  if (count('Join') > 1) throw new DefinitionError(file, `expected at most one Join table, found ${count('Join')}`);
  if (count('Join') === 1 && count('Child') === 0) throw new DefinitionError(file, 'a Join table needs a Child table');
  if (count('ChildExtension') > 0 && count('Child') === 0) {
    throw new DefinitionError(file, 'a ChildExtension table needs a Child table');
  }
  const names = new Set<string>();
  for (const t of tables) {
    if (names.has(t.name.toLowerCase())) throw new DefinitionError(file, `table ${t.name} is declared twice`);
    names.add(t.name.toLowerCase());
  }
}

function parseValidations(file: string, nodes: unknown): ValidationRule[] {
  return ((nodes ?? []) as XmlNode[]).map((node) => {
    const name = optionalAttribute(node, 'name');
    const type = optionalAttribute(node, 'type') ?? 'String';
    if (!name) throw new DefinitionError(file, 'a validatedAttribute has no name');
    if (type !== 'String' && type !== 'Numeric') {
      throw new DefinitionError(file, `validatedAttribute ${name} has type "${type}"; expected String or Numeric`);
    }
    const num = (attr: string): number | undefined => {
      const raw = optionalAttribute(node, attr);
      if (raw === undefined) return undefined;
      const n = Number(raw);
      if (!Number.isFinite(n))
        throw new DefinitionError(file, `validatedAttribute ${name} has ${attr}="${raw}", not a number`);
      return n;
    };
    const regex = optionalAttribute(node, 'regex');
    if (regex !== undefined) checkRegex(file, name, regex);
    return {
      name,
      type,
      minLength: num('minLength'),
      maxLength: num('maxLength'),
      regex,
      minValue: num('minValue'),
      maxValue: num('maxValue'),
    };
  });
}

function checkRegex(file: string, name: string, regex: string): void {
  try {
    new RegExp(regex, 'u');
  } catch (error) {
    throw new DefinitionError(file, `validatedAttribute ${name} has an invalid regex "${regex}"`, error);
  }
}

const entities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The documentation element is kept raw (a stop node, so markup in it stays text); its character data is
 * decoded here: CDATA sections as they are, XML's five entities and character references everywhere else.
 */
function documentationText(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) =>
      part.startsWith('<![CDATA[')
        ? part.slice('<![CDATA['.length, -']]>'.length)
        : part.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (match, ref: string) => {
            if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
            if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
            return entities[ref] ?? match;
          }),
    )
    .join('')
    .trim();
}
