/**
 * Runs one MCP tool call for a caller. An operation tool becomes the request to /res it stands for (a read's
 * `where` as the query grammar, a write's rows as the JSON representation's body) and goes through the very
 * pipeline /res requests go through: privileges, parsing, rows per caller, validation, one transaction, change
 * events. So nothing is reachable by MCP that is not by REST for the same token. Arguments are checked against the
 * tool's input schema first; a bad argument, like any refused request, is a tool error naming what was wrong.
 */
import type { Caller } from '../auth/caller';
import { BadRequestError, toServiceError } from '../errors';
import type { HttpRequest } from '../http/from-event';
import { serveResource } from '../pipeline';
import type { Operation } from '../request/resource-request';
import { noteRequest } from '../request-context';
import { argumentProblems } from './argument-check';
import { describeResource, listResources } from './describe-resources';
import type { CallerResources } from './mcp-server';
import { readRows, type ToolAction, type ToolDefinition, type ToolResource } from './tool-definitions';
import { formOf, queryOf, type ReadArguments, type ToolValue, type Where } from './tool-query';

export interface ToolResult {
  readonly content: { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

type Row = Record<string, unknown>;
interface WriteArguments {
  readonly rows?: readonly Row[];
  readonly where?: Where;
  readonly set?: Readonly<Record<string, ToolValue>>;
}

export async function callTool(
  call: { readonly tool: ToolDefinition; readonly action: ToolAction; readonly args: Record<string, unknown> },
  { resources, unavailable }: CallerResources,
  caller: Caller,
): Promise<ToolResult> {
  noteRequest({ tool: call.tool.name });
  try {
    const problems = await argumentProblems(call.tool.inputSchema, call.args);
    if (problems) throw new BadRequestError('bad_argument', `Arguments of ${call.tool.name}: ${problems}`);
    const { action, args } = call;
    if (action.kind === 'list_resources') return answer(listResources(resources, unavailable));
    if (action.kind === 'describe_resource') return answer(describeResource(resources, String(args.name)));
    const entry = resources.find((r) => r.resource.name === action.resource) as ToolResource;
    // the pipeline throws what it refuses; what it answers is the JSON representation's body
    const response = await serveResource(requestOf(action.kind, entry, args), caller);
    return answer(JSON.parse(response.body) as Record<string, unknown>);
  } catch (error) {
    const { status, code, message } = toServiceError(error);
    noteRequest({ toolError: code });
    return {
      content: [{ type: 'text', text: JSON.stringify({ status, code, message }) }],
      isError: true,
    };
  }
}

function answer(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

const json = { accept: 'application/json', 'content-type': 'application/json' };

/** The /res request the operation tool stands for. */
function requestOf(op: Operation, entry: ToolResource, args: Record<string, unknown>): HttpRequest {
  const { resource } = entry;
  const path = `/res/${encodeURIComponent(resource.name)}`;
  const base = { path, headers: json };
  const body = (rows: readonly Row[]) => JSON.stringify({ [resource.collectionName]: rows });
  if (op === 'read') {
    const read = args as ReadArguments;
    const limit = read.limit ?? readRows(entry).unasked;
    return { ...base, method: 'GET', rawQuery: queryOf({ ...read, limit }) };
  }
  const write = args as WriteArguments;
  if (op === 'insert') return { ...base, method: 'POST', rawQuery: '', body: body(write.rows ?? []) };
  const method = op === 'update' ? 'PUT' : 'DELETE';
  if (write.rows !== undefined && write.where === undefined && write.set === undefined)
    return { ...base, method, rawQuery: '', body: body(write.rows) };
  const where = byQuery(op, resource.name, write);
  if (op === 'delete') return { ...base, method, rawQuery: queryOf({ where }) };
  const form = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
  return { path, headers: form, method, rawQuery: queryOf({ where }), body: formOf(write.set ?? {}) };
}

/** A write by query: `where` (with `set` for an update) and no rows; else the error saying what to give. */
function byQuery(op: 'update' | 'delete', name: string, write: WriteArguments): Where {
  const wanted = op === 'update' ? 'where with set' : 'where';
  if (write.rows !== undefined || write.where === undefined || (op === 'update' && write.set === undefined))
    throw new BadRequestError('bad_argument', `Give either rows, or ${wanted} (not both), to ${op} rows of ${name}`);
  if (Object.keys(write.where).length === 0)
    throw new BadRequestError('bad_argument', `where of ${op}_${name} is empty: name at least one field`);
  return write.where;
}
