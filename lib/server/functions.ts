/**
 * The handlers of serverless.yml's functions by name, for the server mode: the very exports Lambda runs, so a
 * container serves exactly what the functions serve.
 */
import { handler as catalog } from '../../handlers/catalog';
import { handler as conf } from '../../handlers/conf';
import { handler as remove } from '../../handlers/delete';
import { handler as explorer } from '../../handlers/explorer';
import { handler as fallback } from '../../handlers/fallback';
import { handler as health } from '../../handlers/health';
import { handler as insert } from '../../handlers/insert';
import { handler as mcp } from '../../handlers/mcp';
import { handler as read } from '../../handlers/read';
import { handler as update } from '../../handlers/update';
import { handler as xsd } from '../../handlers/xsd';
import type { Handler } from '../http/create-handler';
import type { FunctionName } from '../routes';

export const functions: Readonly<Record<FunctionName, Handler>> = {
  read,
  insert,
  update,
  delete: remove,
  conf,
  catalog,
  xsd,
  explorer,
  health,
  mcp,
  fallback,
};
