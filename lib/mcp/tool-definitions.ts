/**
 * The MCP tools a caller gets: `list_resources` and `describe_resource`, and for each resource it may see a tool per
 * operation its privileges allow (`read_<Name>`, `insert_<Name>`, `update_<Name>`, `delete_<Name>`; a dot in the name
 * becomes `__`). Each tool's input is a JSON Schema built from the resource's fields, as the OpenAPI document
 * describes them: types, NULL, rules, the fields an insert must give, child rows nested as the JSON representation
 * nests them. Pure; must not run anything: lib/mcp/call-tool.ts does.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Privilege } from '../auth/caller';
import { fieldDescription, rowSchema, writable } from '../openapi/field-schemas';
import type { Operation } from '../request/resource-request';
import type { Field, SqlResource } from '../resource';
import { fieldLevels, fieldsAt, type Level } from '../resource-levels';

type Schema = Record<string, unknown>;

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Schema & { readonly type: 'object' };
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint: false;
  };
}

/** What a tool call does: one of the two catalogue tools, or an operation on a resource. */
export type ToolAction =
  | { readonly kind: 'list_resources' }
  | { readonly kind: 'describe_resource' }
  | { readonly kind: Operation; readonly resource: string };

/** A resource the caller may see, the privileges it holds on it, and the rows one read may return. */
export interface ToolResource {
  readonly resource: SqlResource;
  readonly held: readonly Privilege[];
  /** The resource's read cap: its definition's maxRows, else MAX_ROWS. */
  readonly maxRows: number;
}

/** Rows a read returns when the call does not say: enough to see what is there, few enough for a context window. */
const defaultReadRows = 20;
/** The most rows one read tool call returns, whatever the resource's cap: an agent pages through more. */
const maxReadRows = 200;

const privilegeOf: Readonly<Record<Operation, Privilege>> = {
  read: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
};
const operations: readonly Operation[] = ['read', 'insert', 'update', 'delete'];

/** The operations the caller's privileges allow on the resource: those it has a tool for. */
export const operationsHeld = (entry: Pick<ToolResource, 'held'>): Operation[] =>
  operations.filter((op) => entry.held.includes(privilegeOf[op]));

/** The most rows one read tool call returns from the resource, and what it returns when the call does not say. */
export function readRows(entry: Pick<ToolResource, 'maxRows'>): { readonly most: number; readonly unasked: number } {
  const most = Math.min(entry.maxRows, maxReadRows);
  return { most, unasked: Math.min(defaultReadRows, most) };
}

export const toolName = (op: Operation, resourceName: string): string => `${op}_${resourceName.replace(/\./g, '__')}`;

/** The tool the name calls, among those the caller has; undefined for any other name. */
export function toolAction(name: string, resources: readonly ToolResource[]): ToolAction | undefined {
  if (name === 'list_resources' || name === 'describe_resource') return { kind: name };
  for (const entry of resources) {
    const op = operationsHeld(entry).find((o) => toolName(o, entry.resource.name) === name);
    if (op) return { kind: op, resource: entry.resource.name };
  }
  return undefined;
}

export function toolsFor(resources: readonly ToolResource[]): ToolDefinition[] {
  const names = resources.map((r) => r.resource.name);
  return [
    {
      name: 'list_resources',
      title: 'List resources',
      description:
        'Lists the resources (named SQL queries over the database) this caller may use, with their kind, what each is about, and the tools that read or change each.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'describe_resource',
      title: 'Describe a resource',
      description:
        "Describes one resource: its fields (label, type, key, whether NULL is allowed, rules), its kind and child rows, how many rows a read returns, and the operations this caller may use. The resource's OpenAPI description is an MCP resource too.",
      inputSchema: {
        type: 'object',
        // an empty enum is no schema a client can read: a caller without resources gets a plain string
        properties: {
          name: { type: 'string', ...(names.length ? { enum: names } : {}), description: 'The resource name' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ...resources.flatMap((entry) => operationsHeld(entry).map((op) => operationTool(op, entry))),
  ];
}

function operationTool(op: Operation, entry: ToolResource): ToolDefinition {
  const { resource } = entry;
  const about = resource.documentation ? ` ${oneLine(resource.documentation)}` : '';
  const name = toolName(op, resource.name);
  const rows = `${resource.rowName} rows`;
  switch (op) {
    case 'read': {
      const { most, unasked } = readRows(entry);
      return tool(name, `Read ${resource.name}`, {
        description: `Reads ${rows} of ${resource.name} (${kindText(resource)}), filtered by \`where\`, at most ${most} per call (${unasked} unless \`limit\` says): page on with \`offset\`.${about}`,
        inputSchema: readSchema(resource, readRows(entry)),
        annotations: { readOnlyHint: true, openWorldHint: false },
      });
    }
    case 'insert':
      return tool(name, `Insert ${resource.name}`, {
        description: `Inserts ${rows} into ${resource.name}, in one transaction; gives back rowsAffected and the rows as stored, generated keys filled in.${childText(resource, 'with their child rows nested')}${about}`,
        inputSchema: objectOf({ rows: rowsArray(resource, 'insert') }, ['rows']),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      });
    case 'update':
      return tool(name, `Update ${resource.name}`, {
        description: `Updates ${rows} of ${resource.name}, in one transaction, and gives back rowsAffected. Either \`rows\` (each with its key and the fields to change${childText(resource, '; child rows nested under their parent')}), or \`where\` with \`set\` (the new values of every row that matches).${about}`,
        inputSchema: objectOf(
          { rows: rowsArray(resource, 'update'), where: whereSchema(resource), set: setSchema(resource) },
          [],
        ),
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      });
    case 'delete':
      return tool(name, `Delete ${resource.name}`, {
        description: `Deletes ${rows} of ${resource.name}, in one transaction, and gives back rowsAffected. Either \`rows\` (each with its key${childText(resource, '; child rows nested under their parent delete those only')}), or \`where\` (every row that matches).${about}`,
        inputSchema: objectOf({ rows: rowsArray(resource, 'delete'), where: whereSchema(resource) }, []),
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      });
  }
}

function tool(name: string, title: string, rest: Omit<ToolDefinition, 'name' | 'title'>): ToolDefinition {
  return { name, title, ...rest };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

function kindText(resource: SqlResource): string {
  if (resource.kind === 'flat') return 'flat';
  return `${resource.kind}: each ${resource.rowName} holds its ${resource.childRowName} rows under "${resource.childCollectionName}"`;
}

function childText(resource: SqlResource, what: string): string {
  return resource.childCollectionName
    ? ` ${resource.childRowName} rows go under "${resource.childCollectionName}", ${what}.`
    : '';
}

function objectOf(properties: Record<string, Schema>, required: readonly string[]): ToolDefinition['inputSchema'] {
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}

/** A read's arguments: `where`, `order`, and `limit` up to the resource's cap (and maxReadRows), `offset`. */
function readSchema(
  resource: SqlResource,
  { most, unasked }: ReturnType<typeof readRows>,
): ToolDefinition['inputSchema'] {
  const labels = resource.fields.filter((f) => !f.readOnly).map((f) => f.label);
  return objectOf(
    {
      where: whereSchema(resource),
      order: {
        type: 'array',
        items: { type: 'string', enum: labels.flatMap((l) => [l, `-${l}`]) },
        description: 'Fields to order by, first first; a leading - orders from the highest down. Default: by key.',
      },
      limit: { type: 'integer', minimum: 1, maximum: most, default: unasked },
      offset: { type: 'integer', minimum: 0, description: 'Rows to skip, to page on' },
    },
    [],
  );
}

const operatorNames = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'in', 'isNull'];

/** `where`: per field, a value (equals, null for IS NULL) or an object of operators that must all hold. */
function whereSchema(resource: SqlResource): Schema {
  const properties = Object.fromEntries(
    resource.fields.filter((f) => !f.readOnly).map((field) => [field.label, conditionSchema(resource, field)]),
  );
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    description:
      'Conditions on fields, all of which must hold: a value means equals (null: IS NULL); an object gives operators: eq, ne (a value or a list), lt, le, gt, ge, like (SQL pattern: % any text, _ one character), in (a list), isNull (true or false). A field may take one lower and one upper bound, or several ne.',
  };
}

function conditionSchema(resource: SqlResource, field: Field): Schema {
  const value = valueSchema(resource, field, true);
  const operators = Object.fromEntries(
    operatorNames.map((op) => {
      if (op === 'in') return [op, { type: 'array', items: value, minItems: 1 }];
      if (op === 'ne') return [op, { anyOf: [value, { type: 'array', items: value, minItems: 1 }] }];
      if (op === 'like') return [op, { type: 'string' }];
      if (op === 'isNull') return [op, { type: 'boolean' }];
      return [op, value];
    }),
  );
  return {
    anyOf: [value, { type: 'object', properties: operators, additionalProperties: false, minProperties: 1 }],
    description: fieldDescription(resource, field),
  };
}

/**
 * The fields' value schemas as the OpenAPI document has them, without their XML notes, examples, descriptions and
 * read-only marks: built once per resource (a resource is rebuilt when its definition or catalog changes), from
 * each level's row schema.
 */
const fieldSchemaCache = new WeakMap<SqlResource, ReadonlyMap<string, Schema>>();

function fieldSchemas(resource: SqlResource): ReadonlyMap<string, Schema> {
  let schemas = fieldSchemaCache.get(resource);
  if (!schemas) {
    const rows = { parent: rowSchema(resource, 'parent'), child: rowSchema(resource, 'child') } as Record<
      Level,
      { properties: Record<string, OpenAPIV3_1.SchemaObject> }
    >;
    const levels = fieldLevels(resource);
    schemas = new Map(
      resource.fields.map((field) => {
        const {
          xml: _x,
          examples: _e,
          description: _d,
          readOnly: _r,
          ...schema
        } = rows[levels.get(field.label) ?? 'parent'].properties[field.label] ?? {};
        return [field.label, schema as Schema];
      }),
    );
    fieldSchemaCache.set(resource, schemas);
  }
  return schemas;
}

/** A field's value schema; NULL allowed where `nullable`. */
function valueSchema(resource: SqlResource, field: Field, nullable: boolean): Schema {
  const schema = fieldSchemas(resource).get(field.label) ?? {};
  const type = schema.type;
  if (nullable && typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return schema;
}

/** An update's `set`: the writable parent fields, each a value or null. */
function setSchema(resource: SqlResource): Schema {
  const fields = fieldsAt(resource, 'parent').filter((f) => writable(resource, f));
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.label, valueSchema(resource, f, true)])),
    additionalProperties: false,
    minProperties: 1,
    description: 'With `where`: the new values of every matching row (null sets NULL)',
  };
}

/** The rows of a write, at one level: inserts list the fields they must give; children nest under a parent. */
function rowsArray(resource: SqlResource, op: 'insert' | 'update' | 'delete'): Schema {
  return { type: 'array', minItems: 1, items: rowOf(resource, 'parent', op) };
}

function rowOf(resource: SqlResource, level: Level, op: 'insert' | 'update' | 'delete'): Schema {
  const fields = fieldsAt(resource, level).filter((f) => writable(resource, f) || (op !== 'insert' && f.primaryKey));
  const properties: Record<string, Schema> = Object.fromEntries(
    fields.map((f) => {
      const value = valueSchema(resource, f, f.nullable || f.table === null);
      return [f.label, { ...value, description: fieldDescription(resource, f) }];
    }),
  );
  if (level === 'parent' && resource.childCollectionName) {
    properties[resource.childCollectionName] = {
      type: 'array',
      items: rowOf(resource, 'child', op),
      description: `${resource.childRowName} rows of this ${resource.rowName}`,
    };
  }
  // the parent table's columns that take no NULL and have no default; child rows may only name existing rows
  const required =
    op === 'insert' && level === 'parent' ? fields.filter((f) => mustGive(resource, f)).map((f) => f.label) : [];
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function mustGive(resource: SqlResource, field: Field): boolean {
  const table = field.table === null ? undefined : resource.tables[field.table];
  return table?.role === 'Parent' && !field.nullable && !field.hasDefault && !field.generated;
}
